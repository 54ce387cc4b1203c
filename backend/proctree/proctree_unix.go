//go:build unix

package proctree

import (
	"errors"
	"os/exec"
	"syscall"
)

type treeSys struct{}

// prepare puts the process in a new process group, so that a signal to
// Ferry's terminal group (Ctrl+C) reaches Ferry first, and so that Kill can
// end the group.
func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

func (t *Tree) adopt() error { return nil }

func (t *Tree) kill() {
	if !t.ended {
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	}
}

func (t *Tree) release() {}

// Alive reports whether pid names a running (or not yet reaped) process. A
// process of another user counts as alive (EPERM). Pids are reused, so true
// only means "maybe": callers confirm another way.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
