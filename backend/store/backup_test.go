package store_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

// backdate renames backup b as if it had been taken age ago.
func backdate(t *testing.T, b store.BackupFile, age time.Duration) store.BackupFile {
	t.Helper()
	taken := time.Now().Add(-age)
	to := filepath.Join(filepath.Dir(b.Path), store.BackupName(taken))
	if err := os.Rename(b.Path, to); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(b.Path+store.ChecksumSuffix, to+store.ChecksumSuffix); err != nil {
		t.Fatal(err)
	}
	b.Path, b.Taken = to, taken
	return b
}

func TestBackupsRotateAndRespectTheDailyRule(t *testing.T) {
	data := t.TempDir()
	backups := filepath.Join(data, "backups")
	s := openT(t, filepath.Join(data, "db"))
	if err := writeSessions(s, 50); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	t.Run("a backup is a private file, complete under its final name", func(t *testing.T) {
		b, err := s.Backup(ctx, backups)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(b.Path)
		if err != nil || st.Mode().Perm() != privatePerm(0o600) || st.Size() == 0 || st.Size() != b.Size {
			t.Fatalf("backup %s: %v, %v", b.Path, st, err)
		}
		if cst, err := os.Stat(b.Path + store.ChecksumSuffix); err != nil || cst.Mode().Perm() != privatePerm(0o600) || cst.Size() != 65 {
			t.Fatalf("the backup's checksum file: %v, %v", cst, err)
		}
		if dst, err := os.Stat(backups); err != nil || dst.Mode().Perm() != privatePerm(0o700) {
			t.Fatalf("backups directory: %v, %v", dst, err)
		}
		if !strings.HasPrefix(filepath.Base(b.Path), "history-") || !strings.HasSuffix(b.Path, ".backup") {
			t.Fatalf("name %s", b.Path)
		}
		entries, _ := os.ReadDir(backups)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Fatalf("a temporary file stayed: %s", e.Name())
			}
		}
	})
	t.Run("a backup is not due while the newest is younger than a day", func(t *testing.T) {
		have, _ := store.Backups(backups)
		backdate(t, have[0], 23*time.Hour)
		if _, took, err := s.BackupIfDue(ctx, backups, store.BackupEvery); err != nil || took {
			t.Fatalf("took %v, err %v; want no backup", took, err)
		}
		if have, _ := store.Backups(backups); len(have) != 1 {
			t.Fatalf("%d backups, want 1", len(have))
		}
	})
	t.Run("a backup is due once the newest is older than a day", func(t *testing.T) {
		have, _ := store.Backups(backups)
		backdate(t, have[0], 25*time.Hour)
		b, took, err := s.BackupIfDue(ctx, backups, store.BackupEvery)
		if err != nil || !took {
			t.Fatalf("took %v, err %v; want a backup", took, err)
		}
		have, _ = store.Backups(backups)
		if len(have) != 2 || have[0].Path != b.Path {
			t.Fatalf("backups %+v, want the new one first of 2", have)
		}
	})
	t.Run("only the newest three are kept, a stale temporary file is removed", func(t *testing.T) {
		// Make room in time: every existing backup a few days old.
		have, _ := store.Backups(backups)
		for i, b := range have {
			backdate(t, b, time.Duration(72+i)*time.Hour)
		}
		stale := filepath.Join(backups, ".history-123.tmp")
		if err := os.WriteFile(stale, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
		var newest store.BackupFile
		for range 3 {
			b, err := s.Backup(ctx, backups)
			if err != nil {
				t.Fatal(err)
			}
			newest = b
			time.Sleep(2 * time.Millisecond) // distinct names
		}
		have, _ = store.Backups(backups)
		if len(have) != store.KeepBackups || have[0].Path != newest.Path {
			t.Fatalf("backups %+v, want %d with the newest first", have, store.KeepBackups)
		}
		for _, b := range have {
			if time.Since(b.Taken) > time.Hour {
				t.Fatalf("an old backup was kept over a new one: %s", b.Path)
			}
		}
		if _, err := os.Stat(stale); !os.IsNotExist(err) {
			t.Fatalf("stale temporary file: %v", err)
		}
	})
}

func TestRestoreBringsTheSessionsBackAndKeepsTheDamagedStore(t *testing.T) {
	ctx := context.Background()
	// setup returns a data directory whose store held n sessions when its
	// backup was taken, and was damaged afterwards.
	setup := func(t *testing.T, n int) (storeDir, backups string, b store.BackupFile) {
		data := t.TempDir()
		storeDir, backups = filepath.Join(data, "db"), filepath.Join(data, "backups")
		s, err := store.Open(ctx, storeDir, store.WithRole("test"))
		if err != nil {
			t.Fatal(err)
		}
		if err := writeSessions(s, n); err != nil {
			t.Fatal(err)
		}
		if b, err = s.Backup(ctx, backups); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		overwrite(t, filepath.Join(storeDir, "000001.sst"), 1<<10)
		if _, err := store.Open(ctx, storeDir); !errs.Has(err, errs.StoreCorrupt) {
			t.Fatalf("the damaged store opens: %v", err)
		}
		return storeDir, backups, b
	}
	check := func(t *testing.T, r store.Restored, storeDir string, n int, damagedBefore map[string][]byte) {
		t.Helper()
		if r.Sessions != n || r.StoreDir != storeDir {
			t.Fatalf("restored %+v, want %d sessions in %s", r, n, storeDir)
		}
		if !strings.HasPrefix(r.DamagedDir, storeDir+".damaged-") || !sameFiles(snapshot(t, r.DamagedDir), damagedBefore) {
			t.Fatalf("the damaged store was not kept intact at %q", r.DamagedDir)
		}
		s := openT(t, storeDir)
		got := 0
		if err := s.Scan(store.PrefixSession, func(_, _ []byte) error { got++; return nil }); err != nil || got != n {
			t.Fatalf("after restore the store holds %d sessions (%v), want %d", got, err, n)
		}
		if _, err := s.Get(store.SessionKey("s0000007")); err != nil {
			t.Fatalf("session s0000007: %v", err)
		}
	}

	t.Run("from the newest backup", func(t *testing.T) {
		storeDir, backups, _ := setup(t, damagedSessions)
		before := snapshot(t, storeDir)
		have, err := store.Backups(backups)
		if err != nil || len(have) != 1 {
			t.Fatalf("backups %v, %v", have, err)
		}
		r, err := store.Restore(ctx, storeDir, have[0].Path, store.WithRole("test"))
		if err != nil {
			t.Fatal(err)
		}
		check(t, r, storeDir, damagedSessions, before)
		if !r.Checksummed {
			t.Fatal("the backup was restored without checking the SHA-256 written beside it")
		}
	})
	t.Run("a backup damaged after it was written is refused before anything moves", func(t *testing.T) {
		storeDir, _, b := setup(t, damagedSessions)
		before := snapshot(t, storeDir)
		data, err := os.ReadFile(b.Path)
		if err != nil {
			t.Fatal(err)
		}
		// One bit in the middle: the framing still holds, the content does not.
		data[len(data)/2] ^= 0x01
		if err := os.WriteFile(b.Path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err = store.Restore(ctx, storeDir, b.Path, store.WithRole("test"))
		if !errs.Has(err, errs.StoreCorrupt) || errs.From(err).Evidence["file"] != b.Path {
			t.Fatalf("restore of a damaged backup: %v, want store_corrupt naming it", err)
		}
		if !sameFiles(snapshot(t, storeDir), before) {
			t.Fatal("the refused restore changed the store")
		}
		if left, _ := filepath.Glob(storeDir + ".*"); len(left) > 0 {
			t.Fatalf("the refused restore left %v", left)
		}
	})
	t.Run("from a named file outside the backups directory", func(t *testing.T) {
		storeDir, _, b := setup(t, damagedSessions)
		before := snapshot(t, storeDir)
		moved := filepath.Join(t.TempDir(), "kept.backup")
		if err := os.Rename(b.Path, moved); err != nil {
			t.Fatal(err)
		}
		r, err := store.Restore(ctx, storeDir, moved, store.WithRole("test"))
		if err != nil {
			t.Fatal(err)
		}
		if r.From != moved {
			t.Fatalf("from %s", r.From)
		}
		check(t, r, storeDir, damagedSessions, before)
	})
	t.Run("a truncated backup is refused and the store is left where it is", func(t *testing.T) {
		storeDir, _, b := setup(t, damagedSessions)
		before := snapshot(t, storeDir)
		if err := os.Truncate(b.Path, b.Size/2); err != nil {
			t.Fatal(err)
		}
		_, err := store.Restore(ctx, storeDir, b.Path, store.WithRole("test"))
		if e := errs.From(err); e.Code != errs.StoreCorrupt || e.Evidence["file"] != b.Path {
			t.Fatalf("got %#v", e)
		}
		if !sameFiles(snapshot(t, storeDir), before) {
			t.Fatal("a failed restore changed the store")
		}
		matches, _ := filepath.Glob(storeDir + ".*")
		if len(matches) != 0 {
			t.Fatalf("a failed restore left %v", matches)
		}
	})
	t.Run("a file that is no backup is refused without loading it", func(t *testing.T) {
		storeDir, _, _ := setup(t, 10)
		before := snapshot(t, storeDir)
		for name, content := range map[string][]byte{
			"empty":          {},
			"a huge length":  bytes.Repeat([]byte{0xff}, 64),
			"a short header": {1, 2, 3},
		} {
			file := filepath.Join(t.TempDir(), "not.backup")
			if err := os.WriteFile(file, content, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := store.Restore(ctx, storeDir, file, store.WithRole("test"))
			if e := errs.From(err); e.Code != errs.StoreCorrupt || e.Evidence["file"] != file {
				t.Fatalf("%s: got %#v", name, e)
			}
		}
		if !sameFiles(snapshot(t, storeDir), before) {
			t.Fatal("a refused restore changed the store")
		}
	})
	t.Run("a store held by another process is refused and nothing moves", func(t *testing.T) {
		data := t.TempDir()
		storeDir := filepath.Join(data, "db")
		s, err := store.Open(ctx, storeDir, store.WithRole("test"))
		if err != nil {
			t.Fatal(err)
		}
		if err := writeSessions(s, 10); err != nil {
			t.Fatal(err)
		}
		b, err := s.Backup(ctx, filepath.Join(data, "backups"))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		startChild(t, "holder", storeDir)
		_, err = store.Restore(ctx, storeDir, b.Path, store.WithRole("test"))
		if !errs.Has(err, errs.StoreBusy) {
			t.Fatalf("got %v, want store_busy", err)
		}
		if matches, _ := filepath.Glob(storeDir + ".*"); len(matches) != 0 {
			t.Fatalf("a refused restore left %v", matches)
		}
	})
}
