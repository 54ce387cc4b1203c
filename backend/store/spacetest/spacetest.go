//go:build linux

// Package spacetest gives tests a small disk of their own: a tmpfs mounted
// under the test's temporary directory, and a ballast file that fills it to a
// chosen free space. Mounting needs root (CI runs as root); elsewhere the
// tests that need it are skipped with the reason. It is Linux only (tmpfs).
package spacetest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// Mount mounts a tmpfs of size bytes (mode 0700) on a new directory under
// t.TempDir(), unmounts it when the test ends (lazily when something still
// holds it open), and returns its path. It skips t, saying why, when the
// process is not root or the mount fails.
func Mount(t testing.TB, size uint64) string {
	t.Helper()
	Require(t)
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	opts := fmt.Sprintf("size=%d,mode=0700", size)
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		t.Skipf("skipped: cannot mount a tmpfs on %s (%v): the full-disk tests need a mountable tmpfs", dir, err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(dir, 0); err != nil {
			_ = unix.Unmount(dir, unix.MNT_DETACH)
		}
	})
	return dir
}

// Require skips t, saying why, when this process cannot mount a tmpfs (it
// is not root): call it first in a test that sets up more than its disks.
func Require(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("skipped: mounting a small tmpfs to fill the disk needs root (CI runs as root)")
	}
}

// Free is the number of bytes an unprivileged writer may still write on the
// file system holding dir.
func Free(t testing.TB, dir string) uint64 {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return st.Bavail * uint64(st.Bsize)
}

// Fill writes a ballast file into dir so that about leave bytes stay free
// (0: the disk is full), and returns a function that removes it. The ballast
// is removed when the test ends in any case.
func Fill(t testing.TB, dir string, leave uint64) (release func()) {
	t.Helper()
	release, err := FillNow(dir, leave)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return release
}

// FillNow is Fill for a goroutine other than the test's: it returns its
// error instead of failing the test, and the caller removes the ballast.
func FillNow(dir string, leave uint64) (release func(), err error) {
	f, err := os.CreateTemp(dir, ".ballast-*")
	if err != nil {
		return nil, fmt.Errorf("create ballast: %w", err)
	}
	name := f.Name()
	var once sync.Once
	release = func() { once.Do(func() { os.Remove(name) }) }
	defer f.Close()
	// Another process (a browser writing its profile) may take space
	// between the reading and the allocation: read again and retry.
	var size int64
	for try := 0; ; try++ {
		var st unix.Statfs_t
		if err := unix.Statfs(dir, &st); err != nil {
			release()
			return nil, err
		}
		free := st.Bavail * uint64(st.Bsize)
		if free <= leave {
			break
		}
		err := unix.Fallocate(int(f.Fd()), 0, size, int64(free-leave))
		if err == nil {
			size += int64(free - leave)
			continue
		}
		if err != unix.ENOSPC || try == 50 {
			release()
			return nil, fmt.Errorf("fill %s: %w", dir, err)
		}
	}
	if leave == 0 {
		// Whatever fallocate left over (rounding) is written until the disk
		// refuses.
		buf := make([]byte, 4096)
		for {
			if _, err := f.Write(buf); err != nil {
				break
			}
		}
	}
	return release, nil
}
