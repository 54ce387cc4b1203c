package store_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

// damagedSessions is how many sessions the damage tests write: enough for a
// table of some hundred kilobytes, so that 1 KB in its middle is one block
// among many.
const damagedSessions = 1500

// storeWithTable writes damagedSessions sessions into a new store under a
// data directory, closes it (badger writes its memtable as 000001.sst) and
// returns the store directory.
func storeWithTable(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "db")
	s, err := store.Open(context.Background(), dir, store.WithRole("test"))
	if err != nil {
		t.Fatal(err)
	}
	if err := writeSessions(s, damagedSessions); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "000001.sst")); err != nil || st.Size() < 64<<10 {
		t.Fatalf("want a table 000001.sst of some size after close: %v", err)
	}
	return dir
}

// overwrite writes n bytes of 0x5a at the middle of file.
func overwrite(t *testing.T, file string, n int) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0x5a}, n), st.Size()/2); err != nil {
		t.Fatal(err)
	}
}

// snapshot reads every regular file of dir.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func TestADamagedStoreIsReportedNeverReadAsEmpty(t *testing.T) {
	t.Run("1 KB overwritten inside 000001.sst makes Open fail with store_corrupt naming the file", func(t *testing.T) {
		dir := storeWithTable(t)
		table := filepath.Join(dir, "000001.sst")
		overwrite(t, table, 1<<10)
		before := snapshot(t, dir)
		s, err := store.Open(context.Background(), dir, store.WithRole("test"))
		if err == nil {
			// What the issue saw: the store opened and read as empty.
			n := 0
			serr := s.Scan(store.PrefixSession, func(_, _ []byte) error { n++; return nil })
			s.Close()
			t.Fatalf("a damaged store opened; its scan saw %d of %d sessions (err %v)", n, damagedSessions, serr)
		}
		e := errs.From(err)
		if e.Code != errs.StoreCorrupt || e.Evidence["file"] != table || !strings.Contains(e.Message, "000001.sst") {
			t.Fatalf("got %#v, want store_corrupt naming %s", e, table)
		}
		if !strings.Contains(e.RetryHint, "ferry doctor") || !strings.Contains(e.RetryHint, "ferry sessions restore") {
			t.Fatalf("hint %q names neither ferry doctor nor ferry sessions restore", e.RetryHint)
		}
		if errs.ExitCode(err) == 0 {
			t.Fatal("a damaged store maps to exit code 0")
		}
		if after := snapshot(t, dir); !sameFiles(before, after) {
			t.Fatal("the refused open changed the store's files")
		}
	})
	t.Run("Verify names the damaged table and passes a sound one", func(t *testing.T) {
		dir := storeWithTable(t)
		v, err := store.Verify(dir)
		if err != nil || v.Tables == 0 || v.Bytes == 0 {
			t.Fatalf("sound store: %+v, %v", v, err)
		}
		overwrite(t, filepath.Join(dir, "000001.sst"), 1<<10)
		_, err = store.Verify(dir)
		if e := errs.From(err); e.Code != errs.StoreCorrupt || filepath.Base(e.Evidence["file"]) != "000001.sst" {
			t.Fatalf("got %#v", e)
		}
	})
	t.Run("a table the MANIFEST lists but the directory lacks is store_corrupt naming it", func(t *testing.T) {
		dir := storeWithTable(t)
		if err := os.Rename(filepath.Join(dir, "000001.sst"), filepath.Join(t.TempDir(), "kept.sst")); err != nil {
			t.Fatal(err)
		}
		_, err := store.Open(context.Background(), dir, store.WithRole("test"))
		if e := errs.From(err); e.Code != errs.StoreCorrupt || filepath.Base(e.Evidence["file"]) != "000001.sst" {
			t.Fatalf("got %#v", e)
		}
	})
}

func TestAStoreWithoutItsManifestIsRefusedAndKept(t *testing.T) {
	dir := storeWithTable(t)
	if err := os.Remove(filepath.Join(dir, "MANIFEST")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	for range 2 { // a second attempt must not find less than the first
		_, err := store.Open(context.Background(), dir, store.WithRole("test"))
		e := errs.From(err)
		if e.Code != errs.StoreCorrupt || !strings.Contains(e.Message, "MANIFEST") || !strings.Contains(e.Message, "000001.sst") {
			t.Fatalf("got %#v, want store_corrupt naming the missing MANIFEST", e)
		}
	}
	after := snapshot(t, dir)
	if !sameFiles(before, after) {
		t.Fatalf("the refused open changed the store: before %d files, after %d", len(before), len(after))
	}
	if _, ok := after["000001.sst"]; !ok {
		t.Fatal("the table is gone")
	}
}

// sameFiles reports whether two snapshots hold the same files with the same
// bytes.
func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for name, x := range a {
		if y, ok := b[name]; !ok || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

func TestADamagedValueInTheValueLogIsStoreCorrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	s := openT(t, dir)
	big := bytes.Repeat([]byte("a large artifact descriptor "), 8<<10) // above the value threshold: kept in the value log
	if err := s.Put([]byte("artifact/big"), big); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.vlog"))
	var damaged string
	for _, f := range logs {
		if st, err := os.Stat(f); err == nil && st.Size() > int64(len(big)) {
			damaged = f
		}
	}
	if damaged == "" {
		t.Fatalf("no value log holds the value: %v", logs)
	}
	overwrite(t, damaged, 1<<10)
	s = openT(t, dir)
	_, err := s.Get([]byte("artifact/big"))
	if e := errs.From(err); e.Code != errs.StoreCorrupt || !strings.Contains(e.Message, "artifact/big") {
		t.Fatalf("get of a damaged value: %#v", e)
	}
	err = s.Scan([]byte("artifact/"), func(_, _ []byte) error { return nil })
	if !errs.Has(err, errs.StoreCorrupt) {
		t.Fatalf("scan over a damaged value: %v", err)
	}
}
