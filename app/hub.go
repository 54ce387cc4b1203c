package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
)

// EventHub carries the hub's approval and client events (hub.Event) to the
// window: approval.requested is the user's cue to approve or reject an
// agent's job.
const EventHub = "hub:event"

// EventRun carries a RunEvent: a run's new state, its answer so far, or its
// end (then the UI asks Runs.Get for the whole record).
const EventRun = "run:event"

// RunEvent is one piece of news about a run of the hub backend (the
// desktop's own runs and agents' alike).
type RunEvent struct {
	// JobID is the run's id (Runs.Get takes it).
	JobID string `json:"jobId"`
	// Kind is "state" (the run entered State), "partial" (Text is the
	// answer so far) or "ended" (the run will not change by itself any
	// more; State is its final state).
	Kind    string    `json:"kind"`
	Session string    `json:"session,omitempty"`
	State   string    `json:"state,omitempty"`
	Note    string    `json:"note,omitempty"`
	Text    string    `json:"text,omitempty"`
	At      time.Time `json:"at"`
	// RequestedBy is who asked for the run ("desktop" for this app).
	RequestedBy string `json:"requestedBy,omitempty"`
}

// ownerHub is the local gateway the app serves while it owns the data
// directory, so that the CLI and agents work while the app is open, and the
// job runner that the app's own runs go through. srv is nil when the
// gateway could not start: the app's runs still work then.
type ownerHub struct {
	srv     *hub.Server
	backend *core.HubBackend
	browser *browserManager
	cancel  context.CancelFunc
}

// startHub serves the hub for c (the hub file goes to c's data directory)
// with one long-lived browser for every run. A failure is logged, not
// fatal: the app works without the gateway, and the CLI then reports the
// store as busy.
func startHub(ctx context.Context, c *core.Core, log *slog.Logger, emit func() emitter) *ownerHub {
	bm := newBrowserManager(func() config.BrowserSettings { return c.Settings().Browser }, c.Paths().ProfileDir(),
		func(st BrowserState) { emit().Emit(EventBrowser, st) })
	backend, err := c.HubBackend(ctx, core.WithHubBrowserSource(bm.Get))
	if err != nil {
		log.Warn("hub not started", "code", errs.CodeOf(err), "err", err)
		return nil
	}
	evCtx, cancel := context.WithCancel(context.Background())
	h := &ownerHub{backend: backend, browser: bm, cancel: cancel}
	if runs, err := backend.Events(evCtx); err == nil {
		go forwardRuns(runs, emit)
	}
	srv, err := hub.New(core.NewService(c, backend),
		hub.WithHubFile(c.Paths().HubFile()),
		hub.WithClientStore(c.HubClients()),
		hub.WithEventSource(backend),
		hub.WithLogger(log.With("part", "hub")))
	if err == nil {
		err = srv.Start(ctx)
	}
	if err != nil {
		log.Warn("hub not started", "code", errs.CodeOf(err), "err", err)
		return h
	}
	h.srv = srv
	go func() {
		for ev := range srv.Subscribe(evCtx, 64) {
			switch ev.Type {
			case hub.EventApprovalRequested, hub.EventApprovalResolved, hub.EventClientRevoked:
				emit().Emit(EventHub, ev)
			}
		}
	}()
	return h
}

// forwardRuns turns the backend's run events into RunEvents for the window.
func forwardRuns(runs <-chan hub.Event, emit func() emitter) {
	for ev := range runs {
		if re, ok := runEventOf(ev); ok {
			emit().Emit(EventRun, re)
		}
	}
}

// runEventOf reads a run.update or run.partial of the hub backend: the
// pipeline's job.Event while the run goes, the job's view when it ended.
func runEventOf(ev hub.Event) (RunEvent, bool) {
	out := RunEvent{JobID: ev.JobID, At: ev.Time, RequestedBy: ev.ClientID}
	je, ok := ev.JobEvent()
	switch {
	case !ok:
		return RunEvent{}, false
	case je.Job != nil: // the job's view at its end
		out.Kind, out.State = "ended", je.Job.State
		if out.At.IsZero() {
			out.At = je.Job.UpdatedAt
		}
		return out, true
	}
	r := je.Run
	out.Session, out.State, out.Note = r.Session, r.State, r.Note
	switch {
	case r.Kind == string(job.EventPartial) && r.Partial != nil:
		out.Kind, out.Text = "partial", r.Partial.Text
	case r.Kind == string(job.EventState):
		out.Kind = "state"
	default:
		return RunEvent{}, false
	}
	return out, true
}

// stop closes the hub (removing its hub file), stops its running jobs
// before the core closes the store, and quits the browser if Ferry
// launched it. Safe on nil.
func (h *ownerHub) stop(log *slog.Logger) {
	if h == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if h.srv != nil {
		if err := h.srv.Close(ctx); err != nil {
			log.Error("close hub", "err", err)
		}
	}
	if err := h.backend.Close(ctx); err != nil {
		log.Error("stop hub jobs", "err", err)
	}
	h.cancel()
	h.browser.Close()
}

// withHub runs fn with the open core and its hub, or returns why there is
// none.
func (s *shell) withHub(fn func(c *core.Core, h *ownerHub) error) error {
	return s.withCore(func(c *core.Core) error {
		if s.hub == nil {
			return errs.New(errs.Internal, "the job runner did not start").
				WithHint("see the app's log for why, then restart Ferry")
		}
		return fn(c, s.hub)
	})
}
