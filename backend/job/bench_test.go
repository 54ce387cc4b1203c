package job

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

// BenchmarkOpenWith100kSessions writes 100 000 runs through the repository
// (records, creation index and journal entries) and times store.Open and
// the search index rebuild (on first use) on the result.
// Run: go test -run '^$' -bench OpenWith100k -benchtime 3x ./backend/job
func BenchmarkOpenWith100kSessions(b *testing.B) {
	dir := b.TempDir()
	st, err := store.Open(context.Background(), dir, store.WithSyncWrites(false))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	r, err := OpenRepo(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	const n = 100_000
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		_, err := r.Create(ctx, &Session{ID: fmt.Sprintf("s%06d", i), Site: []string{"chatgpt", "claude", "gemini"}[i%3],
			Prompt: fmt.Sprintf("question %d about topic %d and kubernetes", i, i%97), Answer: fmt.Sprintf("answer %d with some words", i),
			State: StateDone, Created: base.Add(time.Duration(i) * time.Second)})
		if err != nil {
			b.Fatal(err)
		}
	}
	st.Close()
	b.ResetTimer()
	var storeOpen, repoOpen time.Duration
	for range b.N {
		t0 := time.Now()
		st, err := store.Open(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		r, err := OpenRepo(ctx, st)
		if err != nil {
			b.Fatal(err)
		}
		if got := r.Len(); got != n { // builds the index
			b.Fatalf("indexed %d", got)
		}
		t2 := time.Now()
		storeOpen += t1.Sub(t0)
		repoOpen += t2.Sub(t1)
		st.Close()
	}
	b.ReportMetric(float64(storeOpen.Milliseconds())/float64(b.N), "store-open-ms")
	b.ReportMetric(float64(repoOpen.Milliseconds())/float64(b.N), "index-rebuild-ms")
}
