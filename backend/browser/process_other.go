//go:build !unix

package browser

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// processAlive cannot probe a pid cheaply here; report true so a lock is
// treated as held and Chromium's own check decides.
func processAlive(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}

func isRoot() bool { return false }
