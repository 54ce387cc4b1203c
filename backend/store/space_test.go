//go:build linux

// These tests fill a real small disk (spacetest's tmpfs, Linux only). On
// Windows space_windows_test.go checks what differs there: the volume's free
// space read with GetDiskFreeSpaceEx and ERROR_DISK_FULL taken as a full disk.

package store_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
	"github.com/ferrydesk/ferry/backend/store"
	"github.com/ferrydesk/ferry/backend/store/spacetest"
)

// smallDisk is a tmpfs with room for the store's margin and 24 MB of
// history: less than two margins, so every write reads the free space afresh.
const smallDisk = store.SpaceMargin + 24<<20

func wantDiskFull(t *testing.T, what string, err error, dir string) {
	t.Helper()
	var e *errs.Envelope
	if !errors.As(err, &e) || e.Code != errs.DiskFull {
		t.Fatalf("%s: got %v, want a disk_full envelope", what, err)
	}
	if e.Evidence["dir"] != dir || e.Evidence["needed_bytes"] == "" || e.Evidence["free_bytes"] == "" {
		t.Fatalf("%s: evidence %v, want the directory %s and the free and needed bytes", what, e.Evidence, dir)
	}
	if errs.ExitCode(err) != errs.ClassDiskFull.ExitCode() {
		t.Fatalf("%s: exit code %d, want disk full's %d", what, errs.ExitCode(err), errs.ClassDiskFull.ExitCode())
	}
}

func TestOpenOnADiskWithoutTheMarginIsRefusedBeforeBadgerWrites(t *testing.T) {
	disk := spacetest.Mount(t, store.SpaceMargin/2)
	dir := filepath.Join(disk, "db")
	s, err := store.Open(context.Background(), dir, store.WithRole("test"))
	if err == nil {
		s.Close()
		t.Fatal("Open succeeded on a disk with less than the margin free")
	}
	wantDiskFull(t, "open", err, dir)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("Open left %s behind in the refused directory", e.Name())
	}
}

func TestAFullDiskRefusesEveryWriteWithoutSIGBUSAndWritesResumeOnceFreed(t *testing.T) {
	disk := spacetest.Mount(t, smallDisk)
	dir := filepath.Join(disk, "db")
	s, err := store.Open(context.Background(), dir, store.WithRole("test"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put([]byte("kept"), []byte("before the disk filled")); err != nil {
		t.Fatal(err)
	}

	// Without the check, the next commit writes into a hole of badger's
	// memory-mapped log on a disk with no block left: SIGBUS ends this test
	// binary.
	release := spacetest.Fill(t, disk, 0)
	big := bytes.Repeat([]byte("v"), 1<<20)
	writes := map[string]func() error{
		"Put":               func() error { return s.Put([]byte("new"), []byte("x")) },
		"Put a large value": func() error { return s.Put([]byte("big"), big) },
		"Delete":            func() error { return s.Delete([]byte("kept")) },
		"Update":            func() error { return s.Update(func(tx *store.Tx) error { return tx.Put([]byte("u"), []byte("y")) }) },
	}
	for name, write := range writes {
		wantDiskFull(t, name, write(), dir)
	}
	if v, err := s.Get([]byte("kept")); err != nil || string(v) != "before the disk filled" {
		t.Fatalf("reading on a full disk: %q, %v", v, err)
	}
	if _, err := s.Get([]byte("new")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused Put was written: %v", err)
	}
	wantDiskFull(t, "Close on a full disk", s.Close(), dir)

	// Short of the margin by a little is still refused.
	release()
	release = spacetest.Fill(t, disk, store.SpaceMargin-1<<20)
	wantDiskFull(t, "Put 1 MB short of the margin", s.Put([]byte("new"), []byte("x")), dir)

	release()
	for name, write := range writes {
		if err := write(); err != nil {
			t.Fatalf("%s after the disk was freed: %v", name, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close after the disk was freed: %v", err)
	}
	s2, err := store.Open(context.Background(), dir, store.WithRole("test"))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if v, err := s2.Get([]byte("big")); err != nil || len(v) != len(big) {
		t.Fatalf("the write after the disk was freed did not survive a reopen: %d bytes, %v", len(v), err)
	}
}

func TestTheDiskFullMessageNamesTheDirectoryAndTheSpace(t *testing.T) {
	disk := spacetest.Mount(t, store.SpaceMargin/2)
	dir := filepath.Join(disk, "db")
	_, err := store.Open(context.Background(), dir, store.WithRole("test"))
	e := errs.From(err)
	for _, want := range []string{dir, "MB free", "64.0 MB"} {
		if !bytes.Contains([]byte(e.Message), []byte(want)) {
			t.Errorf("message %q lacks %q", e.Message, want)
		}
	}
	for _, want := range []string{platform.FreeSpace(platform.GOOS, dir), "--data-dir"} {
		if !bytes.Contains([]byte(e.RetryHint), []byte(want)) {
			t.Errorf("hint %q lacks %q", e.RetryHint, want)
		}
	}
}

// TestABackupNeverEatsTheMargin: a backup is written on the store's disk;
// when the history's copy would leave less than the margin, it is refused
// with disk_full before a byte is written, and the store goes on.
func TestABackupNeverEatsTheMargin(t *testing.T) {
	disk := spacetest.Mount(t, smallDisk)
	dir := filepath.Join(disk, "db")
	s, err := store.Open(context.Background(), dir, store.WithRole("test"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	val := bytes.Repeat([]byte("h"), 200<<10)
	for i := 0; i < 20; i++ {
		if err := s.Put([]byte{'k', byte(i)}, val); err != nil {
			t.Fatal(err)
		}
	}
	backups := filepath.Join(disk, "backups")
	if _, err := s.Backup(context.Background(), backups); err != nil {
		t.Fatalf("a backup with room to spare: %v", err)
	}
	// Leave the margin and a little more: enough for a commit, not for a
	// second copy of the history.
	release := spacetest.Fill(t, disk, store.SpaceMargin+1<<20)
	defer release()
	before, _ := store.Backups(backups)
	_, err = s.Backup(context.Background(), backups)
	wantDiskFull(t, "Backup on a nearly full disk", err, dir)
	after, _ := store.Backups(backups)
	if len(after) != len(before) {
		t.Fatalf("the refused backup left a file: %d backups before, %d after", len(before), len(after))
	}
	if left, _ := filepath.Glob(filepath.Join(backups, "*.tmp*")); len(left) > 0 {
		t.Fatalf("the refused backup left %v", left)
	}
	if err := s.Put([]byte("after"), []byte("the refused backup")); err != nil {
		t.Fatalf("a commit after the refused backup: %v", err)
	}
}
