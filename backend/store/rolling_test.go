package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ferrydesk/ferry/backend/store"
)

func TestRollingBackups(t *testing.T) {
	ctx := context.Background()
	backupsIn := func(t *testing.T, dir string) []store.BackupFile {
		t.Helper()
		have, err := store.Backups(dir)
		if err != nil {
			t.Fatal(err)
		}
		return have
	}
	t.Run("backups that start with none take one, and one more when they close", func(t *testing.T) {
		data := t.TempDir()
		dir := filepath.Join(data, "backups")
		s := openT(t, filepath.Join(data, "db"))
		if err := writeSessions(s, 12); err != nil {
			t.Fatal(err)
		}
		r := s.StartBackups(dir)
		<-r.Checked()
		if have := backupsIn(t, dir); len(have) != 1 || r.Last().Path != have[0].Path {
			t.Fatalf("backups after the start %+v (last %s), want the one due at start", have, r.Last().Path)
		}
		if err := r.Close(ctx); err != nil {
			t.Fatal(err)
		}
		have := backupsIn(t, dir)
		if len(have) != 2 || r.Last().Path != have[0].Path {
			t.Fatalf("backups after close %+v (last %s), want 2 with the closing one newest", have, r.Last().Path)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := store.Restore(ctx, filepath.Join(data, "restored"), have[0].Path, store.WithRole("test"))
		if err != nil || got.Sessions != 12 {
			t.Fatalf("restore of the closing backup: %+v, %v", got, err)
		}
	})
	t.Run("backups that start while the newest is younger than BackupEvery take none until they close", func(t *testing.T) {
		data := t.TempDir()
		dir := filepath.Join(data, "backups")
		s := openT(t, filepath.Join(data, "db"))
		if _, err := s.Backup(ctx, dir); err != nil {
			t.Fatal(err)
		}
		r := s.StartBackups(dir)
		<-r.Checked()
		if n := len(backupsIn(t, dir)); n != 1 {
			t.Fatalf("%d backups while the newest is fresh, want 1", n)
		}
		if r.Last() != (store.BackupFile{}) {
			t.Fatalf("the check at start says it took %+v", r.Last())
		}
		if err := r.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(backupsIn(t, dir)); n != 2 {
			t.Fatalf("%d backups after the close, want 2", n)
		}
	})
	t.Run("a failed closing backup is reported", func(t *testing.T) {
		data := t.TempDir()
		dir := filepath.Join(data, "backups")
		if err := os.WriteFile(dir, []byte("not a directory"), 0o600); err != nil {
			t.Fatal(err)
		}
		s := openT(t, filepath.Join(data, "db"))
		r := s.StartBackups(dir)
		<-r.Checked()
		if err := r.Close(ctx); err == nil {
			t.Fatal("a backup into a file closed without error")
		}
		r.Stop() // stopped already: returns at once
	})
	t.Run("nil backups take none", func(t *testing.T) {
		var r *store.RollingBackups
		r.Stop()
		if err := r.Close(ctx); err != nil || r.Last() != (store.BackupFile{}) {
			t.Fatalf("nil backups: %v, %+v", err, r.Last())
		}
	})
}
