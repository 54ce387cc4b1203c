package main

import (
	"os/exec"
	"syscall"
	"testing"
)

func ownGroup(_ *testing.T, cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// pressStopKey sends what Ctrl+C in a terminal sends: SIGINT to the
// foreground process group.
func pressStopKey(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(-pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
}
