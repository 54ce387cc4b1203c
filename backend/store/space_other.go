//go:build plan9 || js || wasip1 || aix

package store

import (
	"math"
	"os"
)

// freeSpace reports no limit where statfs is not available: the free-space
// check admits every write there.
func freeSpace(string) (uint64, error) { return math.MaxUint64, nil }

// allocated is path's size: free space is not checked here.
func allocated(path string) (uint64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return uint64(info.Size()), nil
}
