package store_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

// openBusy opens dir, held by another opener, expecting StoreBusy, and
// returns the envelope. The holder keeps the directory until after the
// open returns, so an open that waited for it would never return: only
// that hang ends the wait below.
func openBusy(t *testing.T, dir string) *errs.Envelope {
	t.Helper()
	type opened struct {
		s   *store.Store
		err error
	}
	done := make(chan opened, 1)
	go func() {
		s, err := store.Open(context.Background(), dir, store.WithRole("cli"))
		done <- opened{s, err}
	}()
	var o opened
	select {
	case o = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("second open waited for the holder; it must fail at once")
	}
	s, err := o.s, o.err
	if err == nil {
		s.Close()
		t.Fatal("second open succeeded; want store_busy")
	}
	e := errs.From(err)
	if e.Code != errs.StoreBusy {
		t.Fatalf("got %v; want store_busy", err)
	}
	if e.Evidence["dir"] != dir || !strings.Contains(e.Message, dir) {
		t.Fatalf("envelope does not name the directory %s: %#v", dir, e)
	}
	return e
}

func TestSecondOpenInTheSameProcessIsBusyAtOnce(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	e := openBusy(t, dir)
	pid := strconv.Itoa(os.Getpid())
	if e.Evidence["pid"] != pid || !strings.Contains(e.Message, "pid "+pid) || !strings.Contains(e.Message, " test ") && !strings.HasSuffix(e.Evidence["holder"], " test") {
		t.Fatalf("envelope does not name this process (pid %s, role test): %s %v", pid, e.Message, e.Evidence)
	}
	if e.Evidence["role"] != "test" {
		t.Fatalf("role evidence %q, want test", e.Evidence["role"])
	}
	// The failed open must not have disturbed the holder.
	if err := s.Put([]byte("session/x"), []byte("still mine")); err != nil {
		t.Fatalf("holder broken by the second open: %v", err)
	}
	if o, err := store.ReadOwner(dir); err != nil || o.PID != os.Getpid() || o.Role != "test" {
		t.Fatalf("the second open clobbered the owner sidecar: %+v, %v", o, err)
	}
}

func TestSecondOpenFromAnotherProcessNamesTheHolder(t *testing.T) {
	dir := t.TempDir()
	holder := startChild(t, "holder", dir)

	t.Run("the sidecar names program, role, pid and start time", func(t *testing.T) {
		e := openBusy(t, dir)
		want := "data directory " + dir + " is in use by ferry serve (pid " + holder.pid() + ", since "
		if !strings.HasPrefix(e.Message, want) {
			t.Fatalf("message %q\nwant prefix %q", e.Message, want)
		}
		if e.Evidence["pid"] != holder.pid() || e.Evidence["holder"] != "ferry serve" || e.Evidence["role"] != "serve" {
			t.Fatalf("evidence %v", e.Evidence)
		}
	})

	if runtime.GOOS != "linux" {
		return
	}
	sidecar := filepath.Join(dir, store.OwnerFile)
	saved, err := os.ReadFile(sidecar)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("a stale sidecar is overruled by the lock holder in /proc/locks", func(t *testing.T) {
		stale := `{"pid": 1, "program": "ferry", "role": "desktop", "startedAt": "2020-01-01T00:00:00Z"}`
		if err := os.WriteFile(sidecar, []byte(stale), 0o600); err != nil {
			t.Fatal(err)
		}
		e := openBusy(t, dir)
		if e.Evidence["pid"] != holder.pid() || strings.Contains(e.Message, "desktop") {
			t.Fatalf("stale sidecar believed: %s %v", e.Message, e.Evidence)
		}
	})
	t.Run("a missing sidecar falls back to /proc/locks", func(t *testing.T) {
		if err := os.Remove(sidecar); err != nil {
			t.Fatal(err)
		}
		e := openBusy(t, dir)
		if e.Evidence["pid"] != holder.pid() || !strings.Contains(e.Message, "(pid "+holder.pid()) {
			t.Fatalf("holder pid %s not named: %s %v", holder.pid(), e.Message, e.Evidence)
		}
	})
	if err := os.WriteFile(sidecar, saved, 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("once the holder closes, the directory opens", func(t *testing.T) {
		holder.stdin.Close()
		if err := holder.cmd.Wait(); err != nil {
			t.Fatalf("holder exited with %v", err)
		}
		s := openT(t, dir)
		if o, err := store.ReadOwner(dir); err != nil || o.PID != os.Getpid() {
			t.Fatalf("owner after takeover: %+v, %v", o, err)
		}
		_ = s
	})
}

func TestSimultaneousOpensLeaveOneOwnerAndReportTheRestBusy(t *testing.T) {
	dir := t.TempDir()
	const n = 6
	type result struct {
		s   *store.Store
		err error
	}
	results := make(chan result, n)
	startGun := make(chan struct{})
	for range n {
		go func() {
			<-startGun
			s, err := store.Open(context.Background(), dir, store.WithRole("test"))
			results <- result{s, err}
		}()
	}
	close(startGun)
	owners := 0
	for range n {
		r := <-results
		switch {
		case r.err == nil:
			owners++
			defer r.s.Close()
		case !errs.Has(r.err, errs.StoreBusy):
			t.Errorf("an opener got %v; want success or store_busy", r.err)
		}
	}
	if owners != 1 {
		t.Fatalf("%d openers own the directory; want exactly 1", owners)
	}
}

func TestBusyMessageNamesTheDataDirectoryOfAStoreNamedDB(t *testing.T) {
	data := t.TempDir()
	dir := filepath.Join(data, "db")
	openT(t, dir)
	_, err := store.Open(context.Background(), dir)
	e := errs.From(err)
	if e.Code != errs.StoreBusy || e.Evidence["dir"] != dir || !strings.HasPrefix(e.Message, "data directory "+data+" is in use by ") {
		t.Fatalf("got %q %v", e.Message, e.Evidence)
	}
}
