//go:build gui

package guitest

import (
	"os/exec"
	"strings"
	"testing"
)

// TestThreadStatesTellWhereAProcessWaits: the diagnosis of a hung close
// names the threads' states and where they wait.
func TestThreadStatesTellWhereAProcessWaits(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	got := threadStates(cmd.Process.Pid)
	if !strings.Contains(got, "1× sleep ") || !strings.Contains(got, "State: ") {
		t.Errorf("threadStates of a sleeping process: %q", got)
	}
	if got := threadStates(1 << 30); !strings.Contains(got, "no /proc entry") {
		t.Errorf("threadStates of no process: %q", got)
	}
}
