package errs

import (
	"errors"
	"syscall"
)

// Windows' "the disk is full" errors (winerror.h), kept here so that errs
// stays a leaf without golang.org/x/sys.
const (
	errorHandleDiskFull syscall.Errno = 39  // ERROR_HANDLE_DISK_FULL
	errorDiskFull       syscall.Errno = 112 // ERROR_DISK_FULL
)

func osNoSpace(err error) bool {
	return errors.Is(err, errorDiskFull) || errors.Is(err, errorHandleDiskFull)
}
