package store_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

var fixtures struct {
	sync.Mutex
	dirs []string
	s100 string
}

func cleanupFixtures() {
	fixtures.Lock()
	defer fixtures.Unlock()
	for _, d := range fixtures.dirs {
		os.RemoveAll(d)
	}
}

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
	const n, batch = 100_000, 1000
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i += batch {
		err := s.Update(func(tx *store.Tx) error {
			for j := i; j < i+batch; j++ {
				id := fmt.Sprintf("s%07d", j)
				rec := fmt.Appendf(nil, `{"id":%q,"site":"chatgpt","model":"gpt-5","state":"done","prompt":"refactor the parser of module %d so that it streams its input and reports line numbers in errors; keep the public API","answer":"Here is the plan for module %d: split the tokenizer, add a position type, thread it through the parser, and return errors that carry it. Tests cover the error positions.","created":"2025-01-01T00:00:00Z","artifacts":[{"name":"patch-%d.zip","sha256":"%064d"}]}`, id, j, j, j, j)
				if err := tx.Put(store.SessionKey(id), rec); err != nil {
					return err
				}
				if err := tx.Put(store.SessionIndexKey(base.Add(time.Duration(j)*time.Second), id), nil); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
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
