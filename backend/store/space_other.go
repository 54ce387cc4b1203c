//go:build windows || plan9 || js || wasip1 || aix

package store

import "math"

// freeSpace reports no limit where statfs is not available: the free-space
// check admits every write there.
func freeSpace(string) (uint64, error) { return math.MaxUint64, nil }
