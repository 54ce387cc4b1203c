//go:build unix

package hubfile

import (
	"errors"
	"syscall"
)

// ProcessAlive reports whether a process with the given pid exists. A
// process owned by another user counts as alive (EPERM). Pids are reused, so
// a true answer only means "maybe": callers confirm by connecting.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
