package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

func openT(t *testing.T, dir string, opts ...store.Option) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), dir, append([]store.Option{store.WithRole("test")}, opts...)...)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestDataSurvivesCloseAndReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	s := openT(t, dir)
	for i := range 100 {
		if err := s.Put(fmt.Appendf(nil, "session/s%03d", i), fmt.Appendf(nil, "value %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete([]byte("session/s050")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, store.OwnerFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the OWNER sidecar should be gone after Close, stat says %v", err)
	}

	s = openT(t, dir)
	for i := range 100 {
		got, err := s.Get(fmt.Appendf(nil, "session/s%03d", i))
		if i == 50 {
			if !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("deleted key: got %q, %v; want ErrNotFound", got, err)
			}
			continue
		}
		if err != nil || string(got) != fmt.Sprintf("value %d", i) {
			t.Fatalf("key %d after reopen: %q, %v", i, got, err)
		}
	}
	if v := s.SchemaVersion(); v != store.BaseSchemaVersion {
		t.Fatalf("schema version %d, want %d", v, store.BaseSchemaVersion)
	}
}

func TestBasicOperations(t *testing.T) {
	s := openT(t, t.TempDir())

	t.Run("a missing key is ErrNotFound", func(t *testing.T) {
		if _, err := s.Get([]byte("session/nope")); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("an empty key is refused", func(t *testing.T) {
		if err := s.Put(nil, []byte("x")); !errors.Is(err, store.ErrEmptyKey) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("an empty value round-trips as empty, not missing", func(t *testing.T) {
		if err := s.Put([]byte("template/empty"), nil); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get([]byte("template/empty"))
		if err != nil || len(got) != 0 {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("a value over MaxValueSize is refused with ErrValueTooLarge", func(t *testing.T) {
		err := s.Put([]byte("artifact/big"), make([]byte, store.MaxValueSize+1))
		if !errors.Is(err, store.ErrValueTooLarge) {
			t.Fatalf("got %v", err)
		}
		if _, err := s.Get([]byte("artifact/big")); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("refused value was stored: %v", err)
		}
	})
	t.Run("a value of MaxValueSize is stored", func(t *testing.T) {
		big := bytes.Repeat([]byte("z"), store.MaxValueSize)
		if err := s.Put([]byte("artifact/max"), big); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get([]byte("artifact/max"))
		if err != nil || !bytes.Equal(got, big) {
			t.Fatalf("got %d bytes, %v", len(got), err)
		}
	})
	t.Run("Put copies its arguments so the caller may reuse them", func(t *testing.T) {
		k, v := []byte("client/c1"), []byte("first")
		if err := s.Update(func(tx *store.Tx) error {
			if err := tx.Put(k, v); err != nil {
				return err
			}
			copy(v, "XXXXX")
			k[0] = 'X'
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get([]byte("client/c1"))
		if err != nil || string(got) != "first" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("an error from an update function aborts every write in it", func(t *testing.T) {
		boom := errors.New("boom")
		err := s.Update(func(tx *store.Tx) error {
			if err := tx.Put([]byte("template/half"), []byte("x")); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("update returned %v, want the function's error", err)
		}
		if _, err := s.Get([]byte("template/half")); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("aborted write is visible: %v", err)
		}
	})
	t.Run("a transaction sees its own writes", func(t *testing.T) {
		err := s.Update(func(tx *store.Tx) error {
			if err := tx.Put([]byte("template/own"), []byte("mine")); err != nil {
				return err
			}
			got, err := tx.Get([]byte("template/own"))
			if err != nil || string(got) != "mine" {
				return fmt.Errorf("own write: %q, %v", got, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestScanVisitsOnlyThePrefixInOrder(t *testing.T) {
	s := openT(t, t.TempDir())
	keys := []string{"journal/a/3", "journal/a/1", "journal/ab/1", "journal/a/2", "journal/b/1", "journal/a0"}
	for _, k := range keys {
		if err := s.Put([]byte(k), []byte("v-"+k)); err != nil {
			t.Fatal(err)
		}
	}
	collect := func(scan func([]byte, func(k, v []byte) error) error, prefix string) []string {
		var got []string
		err := scan([]byte(prefix), func(k, v []byte) error {
			if string(v) != "v-"+string(k) {
				t.Errorf("value of %s is %q", k, v)
			}
			got = append(got, string(k))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	cases := []struct {
		name   string
		scan   func([]byte, func(k, v []byte) error) error
		prefix string
		want   string
	}{
		{"a forward scan lists one session's entries in order", s.Scan, "journal/a/", "journal/a/1 journal/a/2 journal/a/3"},
		{"a reverse scan lists them newest first", s.ScanReverse, "journal/a/", "journal/a/3 journal/a/2 journal/a/1"},
		{"a reverse scan of a prefix followed by other keys stays inside it", s.ScanReverse, "journal/a", "journal/ab/1 journal/a0 journal/a/3 journal/a/2 journal/a/1"},
		{"a reverse scan of the last prefix works", s.ScanReverse, "journal/b/", "journal/b/1"},
		{"a scan of an absent prefix visits nothing", s.Scan, "journal/zz", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(collect(c.scan, c.prefix), " "); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
	t.Run("an error from the callback stops the scan and is returned", func(t *testing.T) {
		stop := errors.New("stop")
		n := 0
		err := s.Scan([]byte("journal/"), func(k, v []byte) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Fatalf("err %v after %d calls", err, n)
		}
	})
}

func TestSessionIndexKeysSortByCreationTime(t *testing.T) {
	s := openT(t, t.TempDir())
	base := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	ids := []string{"c", "a", "b"}
	for i, id := range ids {
		// Later ids get earlier times, so key order is not id order.
		created := base.Add(-time.Duration(i) * time.Hour)
		if err := s.Put(store.SessionIndexKey(created, id), nil); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	err := s.ScanReverse(store.PrefixSessIdx, func(k, _ []byte) error {
		created, id, err := store.ParseSessionIndexKey(k)
		if err != nil {
			return err
		}
		got = append(got, fmt.Sprintf("%s@%s", id, created.Format("15")))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "c@10 a@09 b@08"; strings.Join(got, " ") != want {
		t.Fatalf("newest first: got %v, want %s", got, want)
	}
}

func TestValidID(t *testing.T) {
	cases := []struct {
		id string
		ok bool
	}{
		{"01HZX3K9Q2", true}, {"a.b_c-d", true}, {"", false}, {"a/b", false}, {"a b", false},
		{strings.Repeat("x", 129), false}, {"é", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("id %.20q is accepted: %v", c.id, c.ok), func(t *testing.T) {
			if err := store.ValidID(c.id); (err == nil) != c.ok {
				t.Fatalf("ValidID(%q) = %v", c.id, err)
			}
		})
	}
}

func TestAClosedStoreRefusesWork(t *testing.T) {
	s := openT(t, t.TempDir())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if err := s.Put([]byte("session/x"), []byte("v")); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("put after close: %v", err)
	}
	if _, err := s.Get([]byte("session/x")); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("get after close: %v", err)
	}
}

func TestOpenNeverWritesToStderr(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = f
	func() {
		defer func() { os.Stderr = old }()
		s, err := store.Open(context.Background(), t.TempDir(), store.WithSyncWrites(false))
		if err != nil {
			t.Errorf("open: %v", err)
			return
		}
		for i := range 2000 {
			_ = s.Put(fmt.Appendf(nil, "session/%d", i), bytes.Repeat([]byte("v"), 300))
		}
		_ = s.Close()
	}()
	f.Close()
	b, _ := os.ReadFile(f.Name())
	if len(b) != 0 {
		t.Fatalf("badger wrote to stderr:\n%s", b)
	}
}

func TestWithLoggerReceivesBadgerProblemsOnly(t *testing.T) {
	var buf bytes.Buffer
	s := openT(t, t.TempDir(), store.WithLogger(&buf))
	if err := s.Put([]byte("session/x"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Info chatter ("All 0 tables opened") is dropped: a clean open and close
	// logs nothing.
	if buf.Len() != 0 {
		t.Fatalf("clean run logged:\n%s", buf.String())
	}
}

func TestOpenReportsProblemsAsEnvelopes(t *testing.T) {
	t.Run("a cancelled context stops Open before it touches the directory", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		dir := filepath.Join(t.TempDir(), "db")
		_, err := store.Open(ctx, dir)
		if !errs.Has(err, errs.Cancelled) {
			t.Fatalf("got %v", err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("directory was created: %v", err)
		}
	})
	t.Run("a directory under a regular file is unwritable and named", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(file, "db")
		_, err := store.Open(context.Background(), dir)
		e := errs.From(err)
		if e.Code != errs.DataDirUnwritable || e.Evidence["dir"] != dir || !strings.Contains(e.Message, dir) {
			t.Fatalf("got %#v", e)
		}
	})
	t.Run("a garbled manifest is reported as a corrupt store naming the directory", func(t *testing.T) {
		dir := t.TempDir()
		s := openT(t, dir)
		if err := s.Put([]byte("session/a"), []byte("v")); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "MANIFEST"), bytes.Repeat([]byte{0x5a}, 64), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := store.Open(context.Background(), dir)
		e := errs.From(err)
		if e.Code != errs.StoreCorrupt || e.Evidence["dir"] != dir || !strings.Contains(e.Message, dir) {
			t.Fatalf("got %#v", e)
		}
		if _, err := os.Stat(filepath.Join(dir, store.OwnerFile)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a failed open left an OWNER sidecar: %v", err)
		}
	})
}

func TestOwnerName(t *testing.T) {
	cases := []struct {
		owner store.Owner
		want  string
	}{
		{store.Owner{Program: "ferry", Role: "serve"}, "ferry serve"},
		{store.Owner{Program: "ferry", Role: "ferry doctor"}, "ferry doctor"},
		{store.Owner{Program: "ferry"}, "ferry"},
		{store.Owner{Role: "desktop"}, "ferry desktop"},
		{store.Owner{}, "another process"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("program %q with role %q is shown as %q", c.owner.Program, c.owner.Role, c.want), func(t *testing.T) {
			if got := c.owner.Name(); got != c.want {
				t.Fatalf("got %q", got)
			}
		})
	}
}
