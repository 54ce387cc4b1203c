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

// TestOpenAt100kSessionsIsFast guards the open time at 100 000 sessions. The
// target is 500 ms (issue 6, measured by BenchmarkOpen100k); the test allows
// a shared, loaded CI machine twice that for the median of five opens.
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
	if times[2] > time.Second {
		t.Fatalf("median open %v at 100k sessions; the target is 500 ms", times[2])
	}
}

// TestReopenAfterSIGKILLAt100kSessionsIsFast measures the worst open: the
// first one after the owner was killed with 100 000 fresh sessions, whose
// newest part badger replays from its write-ahead log.
func TestReopenAfterSIGKILLAt100kSessionsIsFast(t *testing.T) {
	dir := t.TempDir()
	c := startChild(t, "bulk", dir, childCountEnv+"=100000")
	if !c.lines.Scan() || c.lines.Text() != "done" {
		t.Fatalf("bulk writer did not finish: %q", c.lines.Text())
	}
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.cmd.Wait()
	start := time.Now()
	s, err := store.Open(context.Background(), dir, store.WithRole("test"))
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	if err := s.Scan(store.PrefixSessIdx, func(_, _ []byte) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 100_000 {
		t.Fatalf("%d sessions after the crash, want 100000", n)
	}
	t.Logf("first open after SIGKILL at 100k sessions: %v", elapsed)
	if elapsed > time.Second {
		t.Fatalf("open after a crash took %v; the target is 500 ms", elapsed)
	}
}
