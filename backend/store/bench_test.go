//go:build !race

// The open-time figures mean nothing under the race detector (and building
// 100 000 records under it takes minutes), so this file is left out of -race
// runs.

package store_test

import (
	"context"
	"os"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

// sessionsFixture builds, once per test binary, a closed store holding
// 100 000 session records of about 500 bytes plus their index keys.
func sessionsFixture(tb testing.TB) string {
	tb.Helper()
	fixtures.Lock()
	defer fixtures.Unlock()
	if fixtures.s100 != "" {
		return fixtures.s100
	}
	dir, err := os.MkdirTemp("", "ferry-store-100k-")
	if err != nil {
		tb.Fatal(err)
	}
	fixtures.dirs = append(fixtures.dirs, dir)
	s, err := store.Open(context.Background(), dir, store.WithSyncWrites(false), store.WithRole("test"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := writeSessions(s, 100_000); err != nil {
		tb.Fatal(err)
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
	fixtures.s100 = dir
	return dir
}

// BenchmarkOpen100k measures Open+Close of a store with 100 000 sessions
// (issue 6: open <= 500 ms).
func BenchmarkOpen100k(b *testing.B) {
	dir := sessionsFixture(b)
	b.ResetTimer()
	for b.Loop() {
		s, err := store.Open(context.Background(), dir, store.WithRole("test"))
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOpenAt100kSessionsIsFast opens a store of 100 000 sessions five times
// and finds every one each time; it logs the median open. The target (500
// ms, issue 6) is measured by BenchmarkOpen100k, not asserted here: a timed
// test fails on a loaded machine for no fault of the code.
func TestOpenAt100kSessionsIsFast(t *testing.T) {
	dir := sessionsFixture(t)
	var times []time.Duration
	for range 5 {
		start := time.Now()
		s, err := store.Open(context.Background(), dir, store.WithRole("test"))
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, time.Since(start))
		n := 0
		if err := s.Scan(store.PrefixSessIdx, func(_, _ []byte) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if n != 100_000 {
			t.Fatalf("index holds %d sessions", n)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	t.Logf("open at 100k sessions: median %v (min %v, max %v)", times[2], times[0], times[4])
}

// killedBulkWriter writes 100 000 fresh sessions into a new store in a child
// process and kills it with SIGKILL: the store's newest part is only in
// badger's write-ahead log.
func killedBulkWriter(tb testing.TB) string {
	dir := tb.TempDir()
	c := startChild(tb, "bulk", dir, childCountEnv+"=100000")
	if !c.lines.Scan() || c.lines.Text() != "done" {
		tb.Fatalf("bulk writer did not finish: %q", c.lines.Text())
	}
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		tb.Fatal(err)
	}
	_ = c.cmd.Wait()
	return dir
}

// openAfterKill opens dir, the store of a writer just killed, and says how
// long the open that succeeded took. On Windows (Wine) a killed process's
// handles, its lock among them, close a moment after its Wait returned: an
// open in that moment is refused store_busy before it touches anything, and
// is tried again. The bound is one only a lock never released reaches.
// Nothing signals the release to this process, so the lock is looked at
// again every 20 ms.
func openAfterKill(tb testing.TB, dir string) (*store.Store, time.Duration) {
	tb.Helper()
	again := time.NewTicker(20 * time.Millisecond)
	defer again.Stop()
	deadline := time.After(time.Minute)
	for {
		start := time.Now()
		s, err := store.Open(context.Background(), dir, store.WithRole("test"))
		elapsed := time.Since(start)
		if err == nil {
			return s, elapsed
		}
		if !errs.Has(err, errs.StoreBusy) {
			tb.Fatalf("open the killed writer's store: %v", err)
		}
		select {
		case <-again.C:
		case <-deadline:
			tb.Fatalf("the killed writer's store stayed busy for a minute: %v", err)
		}
	}
}

// BenchmarkReopenAfterSIGKILL100k measures the worst open: the first one
// after the owner was killed with 100 000 fresh sessions, whose newest part
// badger replays from its write-ahead log, every table verified first.
func BenchmarkReopenAfterSIGKILL100k(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		dir := killedBulkWriter(b)
		b.StartTimer()
		s, _ := openAfterKill(b, dir)
		b.StopTimer()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// TestReopenAfterSIGKILLAt100kSessionsIsFast opens the store of an owner
// killed with 100 000 fresh sessions and finds every one; it logs the time
// (measured by BenchmarkReopenAfterSIGKILL100k, not asserted: see
// TestOpenAt100kSessionsIsFast).
func TestReopenAfterSIGKILLAt100kSessionsIsFast(t *testing.T) {
	dir := killedBulkWriter(t)
	s, elapsed := openAfterKill(t, dir)
	defer s.Close()
	n := 0
	if err := s.Scan(store.PrefixSessIdx, func(_, _ []byte) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 100_000 {
		t.Fatalf("%d sessions after the crash, want 100000", n)
	}
	t.Logf("first open after SIGKILL at 100k sessions: %v", elapsed)
}
