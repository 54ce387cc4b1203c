//go:build !windows

package store

// lockRefused is false: where the lock can be probed, dirLocked tells, and
// elsewhere badger's error says nothing more.
func lockRefused(error) bool { return false }
