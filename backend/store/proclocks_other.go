//go:build !linux

package store

// lockHolderPID has no /proc/locks to read on this platform.
func lockHolderPID(string) (int, bool) { return 0, false }

// processName is unknown on this platform.
func processName(int) string { return "" }
