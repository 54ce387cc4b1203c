//go:build !windows

package errs

// osNoSpace has nothing to add to ENOSPC and EDQUOT here.
func osNoSpace(error) bool { return false }
