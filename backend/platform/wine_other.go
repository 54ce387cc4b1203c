//go:build !windows

package platform

// UnderWine is false off Windows: Wine runs Windows programs only.
func UnderWine() bool { return false }
