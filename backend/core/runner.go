package core

import (
	"context"
	"sync"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// DesktopRequester is the RequestedBy of jobs the desktop app creates for its
// user: their sessions have origin desktop. Paired clients get random ids,
// so none can take this one.
const DesktopRequester = "desktop"

// runner runs the owner's jobs (every face's, through Service) and is the
// source of the owner's events: jobs run through (*Core).Ask, sessions come
// from the journal's repository, artifacts from the artifacts directory.
// StartOwner makes one; Close waits for running jobs to stop.
type runner struct {
	c        *Core
	jobs     hubJobRepo
	browser  *browser.Browser                                    // every job runs here (OwnerOptions.Browser)
	source   func(ctx context.Context) (*browser.Browser, error) // else each job asks here (the desktop's)
	defaults AskRequest

	mu      sync.Mutex
	running map[string]context.CancelFunc // job id -> cancel of its run
	subs    map[chan service.Event]struct{}
	watches map[chan service.JobEvent]string // typed in-process subscribers -> job id
	closed  bool
	wg      sync.WaitGroup
	runCtx  context.Context
	stopAll context.CancelFunc
}

// newRunner returns the runner of c's jobs. Jobs that were starting or
// awaiting approval when a previous owner stopped are left as they are
// stored: a job awaiting approval is listed again (ListApprovals) and runs
// only once approved. The run history is opened on first need.
func newRunner(c *Core, opts OwnerOptions) *runner {
	h := &runner{c: c, jobs: hubJobRepo{st: c.Store(), held: &heldJobs{}}, browser: opts.Browser,
		running: map[string]context.CancelFunc{}, subs: map[chan service.Event]struct{}{}, watches: map[chan service.JobEvent]string{}}
	if opts.OwnerBrowser != nil && opts.Browser == nil {
		h.source = opts.OwnerBrowser.GetInBackground
	}
	d := opts.Defaults
	h.defaults = AskRequest{BrowserURL: d.BrowserURL, Headless: d.Headless, Chromium: d.Chromium, BrowserArgs: d.BrowserArgs, Timeout: d.Timeout}
	h.runCtx, h.stopAll = context.WithCancel(context.Background())
	return h
}

// Close cancels running jobs and waits for them to journal their end, at
// most until ctx ends. Event channels are closed.
func (h *runner) Close(ctx context.Context) error {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.stopAll()
	done := make(chan struct{})
	go func() { h.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return errs.Wrap(ctx.Err(), errs.Timeout, "stop running jobs: %v", ctx.Err())
	}
	h.mu.Lock()
	for ch := range h.subs {
		delete(h.subs, ch)
		close(ch)
	}
	h.mu.Unlock()
	return nil
}

// Events delivers run.update (a state the run entered) and run.partial (the
// answer grew) of every job started here, until ctx ends. A slow reader
// misses events rather than slowing the run; the job's state stays
// readable with GetJob.
func (h *runner) Events(ctx context.Context) (<-chan service.Event, error) {
	ch := make(chan service.Event, 256)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, errs.New(errs.Internal, "the hub backend is closed")
	}
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	go func() {
		<-ctx.Done()
		h.mu.Lock()
		if _, ok := h.subs[ch]; ok {
			delete(h.subs, ch)
			close(ch)
		}
		h.mu.Unlock()
	}()
	return ch, nil
}

func (h *runner) publish(ev service.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

// sessions is the run history, opened on first need (a command that only
// reads templates does not load it). Errors: as (*Core).Sessions.
func (h *runner) sessions(ctx context.Context) (*job.Repo, error) { return h.c.Sessions(ctx) }

// session reads run id from the history. Errors: as job.Repo.Get.
func (h *runner) session(ctx context.Context, id string) (*job.Session, error) {
	repo, err := h.sessions(ctx)
	if err != nil {
		return nil, err
	}
	return repo.Get(ctx, id)
}
