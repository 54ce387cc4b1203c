package search

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentChanges runs writers and typing readers together; run it
// with -race. Each writer owns its ids, so the final state is known.
func TestConcurrentChanges(t *testing.T) {
	idx := mustIndex(t, genDocs(2000)...)
	ctx := context.Background()
	var stop atomic.Bool
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
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
	time.Sleep(1500 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
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
