//go:build !windows

package app

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid names a live process (not a zombie we
// would have reaped: the browser package waits for its children).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
