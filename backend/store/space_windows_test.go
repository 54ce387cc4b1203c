package store

import (
	"io/fs"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// The full-disk tests of space_test.go fill a tmpfs, which Windows lacks;
// these check what is Windows' own: the volume's free space and its
// disk-full errors.

func TestTheFreeSpaceIsTheVolumesAndAFullVolumesErrorsAreNoSpace(t *testing.T) {
	dir := t.TempDir()
	free, err := freeSpace(dir)
	if err != nil {
		t.Fatalf("freeSpace(%s): %v", dir, err)
	}
	var avail, total, totalFree uint64
	p, _ := windows.UTF16PtrFromString(filepath.VolumeName(dir) + `\`)
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &totalFree); err != nil {
		t.Fatal(err)
	}
	// Other programs write meanwhile: the two readings of the free space
	// differ, the volume's size does not.
	if free == 0 || free > total {
		t.Fatalf("free space of %s is %d bytes, outside the volume's %d", dir, free, total)
	}
	if _, err := freeSpace(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("the free space of a missing directory was read without an error")
	}
	for _, code := range []error{windows.ERROR_DISK_FULL, windows.ERROR_HANDLE_DISK_FULL} {
		if err := (&fs.PathError{Op: "write", Path: filepath.Join(dir, "000001.vlog"), Err: code}); !isNoSpace(err) {
			t.Errorf("%v is not taken as a full disk", err)
		}
	}
	if isNoSpace(&fs.PathError{Op: "write", Path: dir, Err: windows.ERROR_ACCESS_DENIED}) {
		t.Error("access denied is taken as a full disk")
	}
}
