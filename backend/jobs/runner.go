// Package jobs is the owner's one layer of jobs: every face's request to
// run something (an ask, a code run, a reattach) is a job here, stored
// under hubjob/<id> so that its id answers after a restart, waiting for
// approval when the Service says so, run through the pipeline of package
// runs, and told to the owner's event stream and to the job's watchers. It
// also serves what the Service reads of the runs (sessions, tabs,
// templates, artifacts, the sites' live check). Who may do what is core's
// Service's to decide, before it calls here.
package jobs

import (
	"context"
	"sync"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt/templates"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Runner runs the owner's jobs (every face's, through core's Service) and
// is the source of the owner's events: each job's run goes through the
// pipeline of package runs (an ask, a code run, a reattach), sessions come
// from the journal's repository, artifacts from the artifacts directory.
// core's StartOwner makes one; Close waits for running jobs to stop.
type Runner struct {
	d         runs.Deps
	pipe      *runs.Pipeline
	templates templates.Repo

	jobs     hubJobRepo
	browser  *browser.Browser                                    // every job runs here (Options.Browser)
	source   func(ctx context.Context) (*browser.Browser, error) // else each job asks here (Options.Source)
	defaults runs.AskRequest

	mu      sync.Mutex
	running map[string]context.CancelFunc // job id -> cancel of its run
	subs    map[chan service.Event]struct{}
	watches map[chan service.JobEvent]string // typed in-process subscribers -> job id
	closed  bool
	wg      sync.WaitGroup
	runCtx  context.Context
	stopAll context.CancelFunc
}

// Options say where the jobs find a browser.
type Options struct {
	// Browser runs every job in this browser and lists its tabs; the
	// runner never closes it.
	Browser *browser.Browser
	// Source, when Browser is nil, is asked for the browser of each job
	// and of the tab listings (the owner's long-lived browser).
	Source func(ctx context.Context) (*browser.Browser, error)
	// Defaults say how runs find a browser when neither is given: their
	// BrowserURL, Headless, Chromium, BrowserArgs and Timeout (the other
	// fields are ignored).
	Defaults runs.AskRequest
}

// New returns the runner of the jobs stored in d's store, whose runs go
// through a runs.Pipeline over d. Jobs that were starting or awaiting
// approval when a previous owner stopped are left as they are stored: a
// job awaiting approval is listed again (PendingApprovals) and runs only
// once approved. The run history is opened on first need.
func New(d runs.Deps, opts Options) *Runner {
	h := &Runner{d: d, pipe: runs.New(d), templates: templates.New(d.Store), jobs: hubJobRepo{st: d.Store(), held: &heldJobs{}}, browser: opts.Browser,
		running: map[string]context.CancelFunc{}, subs: map[chan service.Event]struct{}{}, watches: map[chan service.JobEvent]string{}}
	if opts.Browser == nil {
		h.source = opts.Source
	}
	def := opts.Defaults
	h.defaults = runs.AskRequest{BrowserURL: def.BrowserURL, Headless: def.Headless, Chromium: def.Chromium, BrowserArgs: def.BrowserArgs, Timeout: def.Timeout}
	h.runCtx, h.stopAll = context.WithCancel(context.Background())
	return h
}

// Close cancels running jobs and waits for them to journal their end, at
// most until ctx ends. Event channels are closed.
func (h *Runner) Close(ctx context.Context) error {
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
func (h *Runner) Events(ctx context.Context) (<-chan service.Event, error) {
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

// Publish delivers ev to the owner's event stream (Events): a decision of
// the Service (an approval, a revoked client) as the jobs' own.
func (h *Runner) Publish(ev service.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

// session reads run id from the history. Errors: as job.Repo.Get.
func (h *Runner) session(ctx context.Context, id string) (*job.Session, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return nil, err
	}
	return repo.Get(ctx, id)
}
