//go:build unix

package clihost

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading without waiting for a writer (a
// file swapped for a FIFO after it was checked).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
