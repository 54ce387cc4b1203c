//go:build !windows

package apptest

import (
	"errors"
	"syscall"
)

// ProcessAlive reports whether pid names a live process (not a zombie we
// would have reaped: the browser package waits for its children).
func ProcessAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
