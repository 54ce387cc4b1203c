//go:build linux

package demo

import (
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
)

// TestWaitOrphans adopts what a child leaves running and waits for it, or
// kills it once the wait is over.
func TestWaitOrphans(t *testing.T) {
	if err := adoptOrphans(); err != nil {
		t.Fatal(err)
	}
	// orphan starts a shell that leaves `sleep secs` behind and returns
	// the sleeper's pid once the shell has exited.
	orphan := func(secs string) int {
		out, err := exec.Command("sh", "-c", "sleep "+secs+" >/dev/null 2>&1 & echo $!").Output()
		if err != nil {
			t.Fatal(err)
		}
		var pid int
		for _, c := range string(out) {
			if c >= '0' && c <= '9' {
				pid = pid*10 + int(c-'0')
			}
		}
		return pid
	}
	t.Run("a helper that ends by itself is waited for", func(t *testing.T) {
		pid := orphan("0.4")
		start := time.Now()
		if killed := waitOrphans(10 * time.Second); len(killed) != 0 {
			t.Fatalf("killed %v", killed)
		}
		if time.Since(start) < 200*time.Millisecond || apptest.ProcessAlive(pid) {
			t.Errorf("returned after %s with the helper (pid %d) alive %v", time.Since(start), pid, apptest.ProcessAlive(pid))
		}
	})
	t.Run("a helper still running after the wait is killed", func(t *testing.T) {
		pid := orphan("30")
		killed := waitOrphans(300 * time.Millisecond)
		if !slices.Contains(killed, pid) || apptest.ProcessAlive(pid) {
			t.Errorf("killed %v, the helper (pid %d) alive %v", killed, pid, apptest.ProcessAlive(pid))
		}
	})
}
