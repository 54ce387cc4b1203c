//go:build !(windows || plan9 || js || wasip1 || aix)

package store

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// freeSpace is the number of bytes an unprivileged process may still write
// on the file system holding dir. The blocks reserved for root are not
// counted, although Ferry may run as root: they are the system's reserve.
func freeSpace(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", dir, err)
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}

// allocated is the disk space path's blocks take (less than its size when
// it is sparse, as badger's preallocated files are).
func allocated(path string) (uint64, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, fmt.Errorf("stat %s: %w", path, err)
	}
	return uint64(st.Blocks) * 512, nil
}
