package errs

import (
	"errors"
	"syscall"
)

// IsNoSpace reports whether err is, or wraps, the operating system's "the
// disk is full": ENOSPC or a quota exceeded (EDQUOT) on unix, and on Windows
// its own ERROR_DISK_FULL and ERROR_HANDLE_DISK_FULL, which are not ENOSPC
// there. Callers turn it into DiskFull.
func IsNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || osNoSpace(err)
}
