//go:build unix

package browser

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the browser in its own process group so that Close
// can end its helpers too, and so that a signal to Ferry's terminal group
// (Ctrl-C) reaches Ferry first, which then closes the browser cleanly.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// processAlive reports whether pid names a running process.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

func isRoot() bool { return syscall.Geteuid() == 0 }
