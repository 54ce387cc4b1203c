package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/store"
)

// TestTheStoreKeepsItsDataOnAWindowsPath opens the store where a Windows
// user's data lives (a drive letter, backslashes, a space and a letter
// outside ASCII in the path), writes, closes, reopens, and backs it up.
func TestTheStoreKeepsItsDataOnAWindowsPath(t *testing.T) {
	root := t.TempDir()
	if v := filepath.VolumeName(root); len(v) != 2 || v[1] != ':' || strings.Contains(root, "/") {
		t.Fatalf("%s is not a Windows path with a drive letter", root)
	}
	dir := filepath.Join(root, "Ferry Data", "Zoë", "db")
	s := openT(t, dir)
	for i := range 200 {
		if err := s.Put(fmt.Appendf(nil, "session/s%03d", i), fmt.Appendf(nil, "value %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("close %s: %v", dir, err)
	}
	s = openT(t, dir)
	for _, i := range []int{0, 117, 199} {
		if got, err := s.Get(fmt.Appendf(nil, "session/s%03d", i)); err != nil || string(got) != fmt.Sprintf("value %d", i) {
			t.Fatalf("key %d after reopen on %s: %q, %v", i, dir, got, err)
		}
	}
	backups := filepath.Join(root, "Ferry Data", "Zoë", "backups")
	b, err := s.Backup(context.Background(), backups)
	if err != nil {
		t.Fatalf("backup into %s: %v", backups, err)
	}
	if filepath.Dir(b.Path) != backups {
		t.Fatalf("backup %s is not in %s", b.Path, backups)
	}
	have, err := store.Backups(backups)
	if err != nil || len(have) != 1 || have[0].Path != b.Path {
		t.Fatalf("backups listed %+v (%v), want %s", have, err, b.Path)
	}
	if st, err := os.Stat(b.Path); err != nil || st.Size() != b.Size {
		t.Fatalf("backup file %s: %v, %v", b.Path, st, err)
	}
}
