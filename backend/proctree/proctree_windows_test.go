package proctree

import "testing"

// Closing the job's last handle ends what is in it: what happens to the
// browser's tree when Ferry exits or crashes without calling Kill.
func TestReleaseWithoutKillEndsTheTree(t *testing.T) {
	tree, cmd, helper := startTree(t)
	rootGone, helperGone := watchExit(t, cmd.Process.Pid), watchExit(t, helper)
	tree.Release()
	rootGone(t)
	helperGone(t)
}
