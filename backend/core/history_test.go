package core

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
)

// seedHistory creates n runs through the core's repository, as runs do.
func seedHistory(t *testing.T, c *Core, n int, prompt string) {
	t.Helper()
	ctx := context.Background()
	repo, err := c.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		s := &job.Session{ID: fmt.Sprintf("run-%05d", i), Site: "claude", Prompt: fmt.Sprintf(prompt, i), Created: base.Add(time.Duration(i) * time.Second)}
		if _, err := repo.Create(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
}

// searchHistory lists the runs that pass f through c's shared repository.
func searchHistory(ctx context.Context, c *Core, f job.Filter) ([]job.Listed, int, error) {
	repo, err := c.History(ctx)
	if err != nil {
		return nil, 0, err
	}
	return repo.List(ctx, f)
}

func searchIDs(t *testing.T, c *Core, f job.Filter) ([]string, int) {
	t.Helper()
	items, total, err := searchHistory(context.Background(), c, f)
	if err != nil {
		t.Fatalf("search %+v: %v", f, err)
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.Session.ID
	}
	return ids, total
}

func TestHistory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("every caller shares one repository whose index is built once", func(t *testing.T) {
		c := openTestCore(t, t.TempDir())
		defer c.Close()
		seedHistory(t, c, 20, "refactor the ledger worker %d")
		a, err := c.History(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.History(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Fatal("History and Sessions returned different repositories")
		}
		ix1, err := a.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, total := searchIDs(t, c, job.Filter{Query: "ledger"}); total != 20 {
			t.Fatalf("ledger matched %d runs, want 20", total)
		}
		ix2, _ := a.Index(ctx)
		if ix1 != ix2 || ix1.Len() != 20 {
			t.Fatalf("the index was rebuilt or is incomplete: same %v, %d runs", ix1 == ix2, ix2.Len())
		}
	})

	t.Run("a write after the index is built shows in the next search", func(t *testing.T) {
		c := openTestCore(t, t.TempDir())
		defer c.Close()
		seedHistory(t, c, 5, "write unit tests %d")
		if ids, _ := searchIDs(t, c, job.Filter{Query: "kubernetes"}); len(ids) != 0 {
			t.Fatalf("kubernetes matched %v before any such run", ids)
		}
		repo, _ := c.History(ctx) // the path a run takes
		if _, err := repo.Create(ctx, &job.Session{ID: "run-new", Site: "chatgpt", Prompt: "set up kubernetes ingress"}); err != nil {
			t.Fatal(err)
		}
		if ids, _ := searchIDs(t, c, job.Filter{Query: "kubernetes"}); len(ids) != 1 || ids[0] != "run-new" {
			t.Fatalf("kubernetes found %v, want [run-new]", ids)
		}
		if _, err := repo.Update(ctx, "run-00002", "answer", func(s *job.Session) error {
			s.Answer = "Use a zanzibar token bucket"
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if ids, _ := searchIDs(t, c, job.Filter{Query: "zanzibar"}); len(ids) != 1 || ids[0] != "run-00002" {
			t.Fatalf("zanzibar found %v, want [run-00002]", ids)
		}
		if _, total := searchIDs(t, c, job.Filter{Query: "unit tests"}); total != 5 {
			t.Fatalf("an update listed a run twice or lost it: %d matches, want 5", total)
		}
	})

	t.Run("WarmHistory builds the index in the background and searches then find every run", func(t *testing.T) {
		c := openTestCore(t, t.TempDir())
		defer c.Close()
		seedHistory(t, c, 300, "migrate the billing schema %d")
		c.WarmHistory()
		c.WarmHistory() // a second call starts nothing new
		select {
		case <-c.hist.done:
		case <-time.After(20 * time.Second):
			t.Fatal("the background build did not finish")
		}
		if _, total := searchIDs(t, c, job.Filter{Query: "billing"}); total != 300 {
			t.Fatalf("billing matched %d runs, want 300", total)
		}
	})

	t.Run("Close stops the background build and later use is refused", func(t *testing.T) {
		c := openTestCore(t, t.TempDir())
		seedHistory(t, c, 50, "fix the login form %d")
		c.WarmHistory()
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.History(ctx); !errs.Has(err, errs.Internal) {
			t.Fatalf("History after Close: %v, want an internal error", err)
		}
		c.WarmHistory() // must not start a build over a closed store
	})

	t.Run("a build stopped half-way is redone from empty by the next search", func(t *testing.T) {
		c := openTestCore(t, t.TempDir())
		defer c.Close()
		seedHistory(t, c, 5200, "design the rate limiter %d") // beyond one 4096-run batch
		repo, _ := c.History(ctx)
		// The build checks ctx every 1024 runs: this ctx ends after the
		// first batch was indexed.
		if _, err := repo.Index(&endAfter{Context: ctx, left: 4}); !errs.Has(err, errs.Cancelled) {
			t.Fatalf("stopped build: %v, want cancelled", err)
		}
		if _, total := searchIDs(t, c, job.Filter{Query: "limiter"}); total != 5200 {
			t.Fatalf("limiter matched %d runs after the retry, want 5200", total)
		}
	})

	t.Run("searches and writes from several goroutines see every committed run", func(t *testing.T) {
		c := openTestCore(t, t.TempDir())
		defer c.Close()
		seedHistory(t, c, 100, "tune the connection pool %d")
		c.WarmHistory()
		repo, _ := c.History(ctx)
		var wg sync.WaitGroup
		var failed atomic.Value
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < 25; i++ {
					id := fmt.Sprintf("new-%d-%02d", w, i)
					if _, err := repo.Create(ctx, &job.Session{ID: id, Site: "gemini", Prompt: "tune the connection pool again"}); err != nil {
						failed.Store(err)
						return
					}
				}
			}(w)
		}
		for r := 0; r < 4; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 20; i++ {
					if _, _, err := searchHistory(ctx, c, job.Filter{Query: "pool"}); err != nil {
						failed.Store(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err, _ := failed.Load().(error); err != nil {
			t.Fatal(err)
		}
		if _, total := searchIDs(t, c, job.Filter{Query: "pool"}); total != 150 {
			t.Fatalf("pool matched %d runs, want 150", total)
		}
	})
}

// endAfter is a context whose Err reports cancellation from the left+1-th
// call on.
type endAfter struct {
	context.Context
	left int
}

func (e *endAfter) Err() error {
	if e.left == 0 {
		return context.Canceled
	}
	e.left--
	return nil
}
