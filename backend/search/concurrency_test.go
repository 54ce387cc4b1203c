package search

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentChanges runs writers and typing readers together; run it
// with -race. Each writer owns its ids, so the final state is known. The
// writers take a fixed number of steps (their 200 adds, then removals,
// re-adds and updates) and the readers type until the writers are done:
// however the machine schedules them, the final state is the same.
func TestConcurrentChanges(t *testing.T) {
	idx := mustIndex(t, genDocs(2000)...)
	ctx := context.Background()
	const steps = 800
	var stop atomic.Bool
	var writers, readers sync.WaitGroup
	errc := make(chan error, 16)
	for w := 0; w < 2; w++ {
		writers.Add(1)
		go func(w int) {
			defer writers.Done()
			for i := 0; i < steps; i++ {
				id := fmt.Sprintf("w%d-%d", w, i%200)
				doc := Doc{ID: id, Site: "aviary", Created: day0.Add(time.Duration(i) * time.Second), Prompt: fmt.Sprintf("flamingo round %d", i)}
				var err error
				switch {
				case i < 200:
					err = idx.Add(doc)
				case i%3 == 0:
					err = idx.Remove(id)
					if err == nil {
						err = idx.Add(doc)
					}
				default:
					err = idx.Update(doc)
				}
				if err != nil {
					errc <- fmt.Errorf("writer %d step %d: %w", w, i, err)
					return
				}
			}
		}(w)
	}
	for rd := 0; rd < 3; rd++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for round := 0; round == 0 || !stop.Load(); round++ {
				for _, q := range []string{"f", "fl", "fla", "flam", "flamingo", "flamingo r"} {
					r, err := idx.Search(ctx, Query{Text: q, Limit: 100})
					if err != nil {
						errc <- fmt.Errorf("search %q: %w", q, err)
						return
					}
					seen := map[string]bool{}
					for _, h := range r.Hits {
						if seen[h.ID] {
							errc <- fmt.Errorf("search %q listed %s twice", q, h.ID)
							return
						}
						seen[h.ID] = true
					}
				}
			}
		}()
	}
	writers.Wait()
	stop.Store(true)
	readers.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	t.Run("after the writers stop every owned run is found exactly once", func(t *testing.T) {
		r := search(t, idx, Query{Text: "flamingo", Site: "aviary", Limit: MaxLimit})
		if r.Total != 400 || len(r.Hits) != 400 {
			t.Fatalf("total %d with %d hits, want 400", r.Total, len(r.Hits))
		}
		idx.cache.reset()
		sameResults(t, "fresh", search(t, idx, Query{Text: "flamingo", Site: "aviary", Limit: MaxLimit}), r)
	})
}

// TestSearchOnAnOlderSnapshot: a search loads the snapshot, then a writer
// appends and a second search remembers its matches among the new runs
// before the first consults the typing cache. The first must not narrow
// from that entry: its runs lie past its snapshot. The interleaving is set
// up by hand, holding on to the older snapshot.
func TestSearchOnAnOlderSnapshot(t *testing.T) {
	idx := mustIndex(t, genDocs(1000)...)
	older := idx.snap.Load()
	var late []Doc
	for i := range 300 {
		late = append(late, Doc{ID: fmt.Sprintf("late-%d", i), Site: "aviary", Created: day0.Add(time.Duration(i) * time.Hour), Prompt: fmt.Sprintf("flamingo late %d", i)})
	}
	if err := idx.Add(late...); err != nil {
		t.Fatal(err)
	}
	newer := idx.snap.Load()
	search(t, idx, Query{Text: "fl", Limit: 20})

	idx.snap.Store(older)
	got := search(t, idx, Query{Text: "fla", Limit: 20})
	for _, h := range got.Hits {
		if strings.HasPrefix(h.ID, "late-") {
			t.Fatalf("a search on the older snapshot found %s, added after it", h.ID)
		}
	}
	want := search(t, freshOf(idx), Query{Text: "fla", Limit: 20})
	sameResults(t, "older snapshot", got, want)

	idx.snap.Store(newer)
	got = search(t, idx, Query{Text: "flam", Limit: 20})
	idx.cache.reset()
	sameResults(t, "newer snapshot", got, search(t, idx, Query{Text: "flam", Limit: 20}))
}
