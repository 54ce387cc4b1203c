package artifact

import (
	"errors"

	"golang.org/x/sys/windows"
)

// osNoSpace reports Windows' own "the disk is full" errors, which are not
// syscall.ENOSPC there.
func osNoSpace(err error) bool {
	return errors.Is(err, windows.ERROR_DISK_FULL) || errors.Is(err, windows.ERROR_HANDLE_DISK_FULL)
}
