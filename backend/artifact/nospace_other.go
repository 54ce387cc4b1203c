//go:build !windows

package artifact

// osNoSpace has nothing to add to ENOSPC and EDQUOT here.
func osNoSpace(error) bool { return false }
