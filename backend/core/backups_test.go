package core

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

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
		// The backup due at open (there was none) may still be running.
		deadline := time.Now().Add(10 * time.Second)
		for len(backupsOf(t, dir)) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		before := len(backupsOf(t, dir))
		if before != 1 {
			t.Fatalf("%d backups after open, want the one due at open", before)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		have := backupsOf(t, dir)
		if len(have) != 2 || c.LastBackup().Path != have[0].Path {
			t.Fatalf("backups after close %+v (last %s), want 2 with the closing one newest", have, c.LastBackup().Path)
		}
		// The closing backup restores the 12 sessions.
		r, err := store.Restore(ctx, filepath.Join(dir, "db"), have[0].Path, store.WithRole("test"))
		if err != nil || r.Sessions != 12 {
			t.Fatalf("restore of the closing backup: %+v, %v", r, err)
		}
	})
	t.Run("an owner takes no backup at open while the newest is younger than a day", func(t *testing.T) {
		dir := t.TempDir()
		c, err := Open(ctx, Options{DataDir: dir, Role: "serve"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Store().Backup(ctx, filepath.Join(dir, "backups")); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if n := len(backupsOf(t, dir)); n != 1 {
			t.Fatalf("a non-owner's close wrote a backup: %d", n)
		}
		c, err = Open(ctx, Options{DataDir: dir, Role: "serve", Owner: true})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // time for a wrong backup at open
		if n := len(backupsOf(t, dir)); n != 1 {
			t.Fatalf("%d backups while the newest is fresh, want 1", n)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if n := len(backupsOf(t, dir)); n != 2 {
			t.Fatalf("%d backups after the close, want 2", n)
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
