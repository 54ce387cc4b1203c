package core

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ferrydesk/ferry/backend/store"
)

func backupsOf(t *testing.T, dir string) []store.BackupFile {
	t.Helper()
	have, err := store.Backups(filepath.Join(dir, "backups"))
	if err != nil {
		t.Fatal(err)
	}
	return have
}

func TestAnOwnerBacksTheHistoryUp(t *testing.T) {
	ctx := context.Background()
	t.Run("a clean close of the owner writes one backup holding the sessions", func(t *testing.T) {
		dir := t.TempDir()
		c, err := Open(ctx, Options{DataDir: dir, Role: "serve", Owner: true})
		if err != nil {
			t.Fatal(err)
		}
		seedHistory(t, c, 12, "question %d")
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		// The backup due at open (store.RollingBackups' test counts it)
		// may have been stopped by the close; the closing one is there.
		have := backupsOf(t, dir)
		if len(have) == 0 || c.LastBackup().Path != have[0].Path {
			t.Fatalf("backups after close %+v (last %s), want the closing one newest", have, c.LastBackup().Path)
		}
		// The closing backup restores the 12 sessions.
		r, err := store.Restore(ctx, filepath.Join(dir, "db"), have[0].Path, store.WithRole("test"))
		if err != nil || r.Sessions != 12 {
			t.Fatalf("restore of the closing backup: %+v, %v", r, err)
		}
	})
	t.Run("a process that is not the owner takes no backup", func(t *testing.T) {
		dir := t.TempDir()
		c, err := Open(ctx, Options{DataDir: dir, Role: "serve"})
		if err != nil {
			t.Fatal(err)
		}
		seedHistory(t, c, 1, "question %d")
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if n := len(backupsOf(t, dir)); n != 0 || c.LastBackup().Path != "" {
			t.Fatalf("a non-owner's close wrote %d backups (last %q)", n, c.LastBackup().Path)
		}
	})
	t.Run("a failed closing backup is reported and the store still closes", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "backups"), []byte("not a directory"), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Open(ctx, Options{DataDir: dir, Role: "serve", Owner: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err == nil {
			t.Fatal("a backup into a file closed without error")
		}
		c2, err := Open(ctx, Options{DataDir: dir, Role: "serve"})
		if err != nil {
			t.Fatalf("the store stayed held after a failed backup: %v", err)
		}
		c2.Close()
	})
}
