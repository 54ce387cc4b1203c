package core

import (
	"context"
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/search"
)

// history is the core's one session repository. Every reader and writer in
// the process (desktop History, CLI session commands, runs, the hub) goes
// through it, so its search index is built once, from the store, and then
// kept in step by the writes themselves: rebuilding it per query costs
// seconds at 100 000 runs.
type history struct {
	mu     sync.Mutex
	repo   *job.Repo
	cancel context.CancelFunc // stops the background build (WarmHistory)
	done   chan struct{}      // closed when the background build ends
	closed bool
}

// History returns the core's session repository, the same one on every
// call. Its search index is built on first use (or by WarmHistory) and then
// only updated by writes. Errors: errs.Internal after Close; as
// job.OpenRepo.
func (c *Core) History(ctx context.Context) (*job.Repo, error) {
	h := &c.hist
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || c.Store() == nil {
		return nil, errs.New(errs.Internal, "the session history is closed").
			WithHint("open the data directory again")
	}
	if h.repo == nil {
		repo, err := job.OpenRepo(ctx, c.Store())
		if err != nil {
			return nil, err
		}
		h.repo = repo
	}
	return h.repo, nil
}

// WarmHistory starts building the history's search index in the
// background and returns at once, so that the first search of a long-lived
// process (the desktop app, the server) finds it ready. A failed or
// stopped build is not fatal: the next search builds the index itself and
// reports the error. Close stops the build. Calling it again is a no-op.
func (c *Core) WarmHistory() {
	repo, err := c.History(context.Background())
	if err != nil {
		return
	}
	h := &c.hist
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done != nil || h.closed {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	h.cancel, h.done = cancel, done
	go func() {
		defer close(done)
		_, _ = repo.Index(ctx) // an error is reported by the next search, which retries
	}()
}

// searchHistoryHits lists the hits of the runs that pass f through the
// shared repository, best match first, without reading the runs (see
// job.Repo.Hits), for a view that searches on every keystroke. Errors: as
// job.Repo.Hits (BadInput for an unknown state or an invalid query, store
// failures), and as History.
func (c *Core) searchHistoryHits(ctx context.Context, f job.Filter) ([]search.Hit, int, error) {
	repo, err := c.History(ctx)
	if err != nil {
		return nil, 0, err
	}
	return repo.Hits(ctx, f)
}

// stop ends the background build, waiting for it, and refuses later use;
// Close calls it before closing the store the repository reads.
func (h *history) stop() {
	h.mu.Lock()
	h.closed = true
	cancel, done := h.cancel, h.done
	h.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}
