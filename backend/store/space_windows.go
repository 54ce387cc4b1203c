package store

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// freeSpace is the number of bytes this user may still write on the volume
// holding dir (GetDiskFreeSpaceEx's "available to the caller", which counts
// a disk quota). badger maps its files on Windows as on Linux, and a write
// into a mapped hole of a full volume is an in-page exception that kills the
// process, so the margin is kept here too.
func freeSpace(dir string) (uint64, error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, fmt.Errorf("read free space of %s: %w", dir, err)
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &free); err != nil {
		return 0, fmt.Errorf("read free space of %s: %w", dir, err)
	}
	return avail, nil
}

// allocated is path's size: NTFS allocates a file's length when it is
// extended, so badger's preallocated files take their size on disk.
func allocated(path string) (uint64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return uint64(info.Size()), nil
}
