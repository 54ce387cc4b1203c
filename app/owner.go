package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/service"
)

// This file is the one place where the app builds what it is a face of:
// the core of its data directory, the owner's long-lived browser, the
// job runner, the local gateway (the hub) and the in-process Service over
// them. Every other file of the app sees only service.Service.

// owner is what the app opened for its data directory while it owns it.
type owner struct {
	core    *core.Core
	browser *ownerbrowser.Browser
	jobs    *core.Owner   // the runner of every face's jobs and the Service over it
	srv     *hub.Server   // nil when the gateway did not start: the app's runs still work then
	svc     *core.Service // jobs.Service
	cancel  context.CancelFunc
}

// openOwner opens the core for the desktop role and starts, best effort,
// the job runner with one long-lived browser for every run and the
// gateway, so that the CLI and agents work while the app is open. Browser
// changes, run events and the gateway's approval and client events go to
// the window through emit. A browser that a run launches (the window's, the
// CLI's or an agent's) starts minimized (ownerbrowser.Browser.GetInBackground):
// nobody asked to see it, so it does not come up over the window; Show,
// Log in and a check to solve bring it up. Errors: core.Open's (the window shows them);
// a runner or gateway that does not start is logged, not returned.
func openOwner(ctx context.Context, log *slog.Logger, emit func() emitter) (*owner, error) {
	c, err := core.Open(ctx, core.Options{Role: "desktop", Owner: true})
	if err != nil {
		return nil, err
	}
	// Build the history's search index now, so the first keystroke in
	// History does not pay for it.
	c.WarmHistory()
	o := &owner{core: c, cancel: func() {}}
	o.browser = ownerbrowser.New(func() config.BrowserSettings { return c.Settings().Browser }, c.Paths().ProfileDir(),
		func(st service.BrowserState) { emit().Emit(EventBrowser, st) })
	tabsChanged := func() { emit().Emit(EventTabs) }
	o.browser.WatchTabs(tabsChanged)
	c.OnTabStatesChanged(tabsChanged)
	// One Service for the window and the gateway: approvals, clients and
	// pairing are decided in it, whichever face asks.
	o.jobs = core.StartOwner(c, core.OwnerOptions{OwnerBrowser: o.browser, Gateway: true})
	o.svc = o.jobs.Service
	evCtx, cancel := context.WithCancel(context.Background())
	o.cancel = cancel
	if events, err := o.svc.Events(evCtx); err == nil {
		go forwardEvents(events, emit)
	}
	err = o.jobs.Serve(ctx, func(ctx context.Context, svc service.Gateway) (func(context.Context) error, error) {
		srv, err := hub.Serve(ctx, svc, hub.WithHubFile(c.Paths().HubFile()), hub.WithLogger(log.With("part", "hub")))
		if err != nil {
			return nil, err
		}
		o.srv = srv
		return srv.Close, nil
	})
	if err != nil {
		log.Warn("hub not started", "code", errs.CodeOf(err), "err", err)
	}
	return o, nil
}

// forwardEvents turns the owner's events into the window's: a run's into
// RunEvents, an approval's or a client's as they are.
func forwardEvents(events <-chan hub.Event, emit func() emitter) {
	for ev := range events {
		switch ev.Type {
		case hub.EventApprovalRequested, hub.EventApprovalResolved, hub.EventClientRevoked:
			emit().Emit(EventHub, ev)
		default:
			if re, ok := event.RunEventOf(ownerEventOf(ev)); ok {
				emit().Emit(EventRun, re)
			}
		}
	}
}

// ownerEventOf reads one event of the owner's stream into its typed form:
// a run.update carries the job's view once the job ended, else the
// pipeline's event, as run.partial does; approval.requested carries the
// approval.
func ownerEventOf(ev hub.Event) event.Event {
	out := event.Event{Type: ev.Type, JobID: ev.JobID, ClientID: ev.ClientID, Time: ev.Time}
	if je, ok := ev.JobEvent(); ok {
		out.Job, out.Run = je.Job, je.Run
	} else if ap, ok := ev.Approval(); ok {
		out.Approval = &ap
	}
	return out
}

// subscribe follows the owner's events until ctx ends or the job runner
// stops (then the channel closes); ok is false when no job runner runs.
func (o *owner) subscribe(ctx context.Context, buf int) (events <-chan event.Event, ok bool) {
	if o == nil || o.svc == nil {
		return nil, false
	}
	in, err := o.svc.Events(ctx)
	if err != nil {
		return nil, false
	}
	out := make(chan event.Event, buf)
	go func() {
		defer close(out)
		for ev := range in {
			select {
			case out <- ownerEventOf(ev):
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, true
}

// close stops the gateway (removing its hub file) and the running jobs
// before the store closes, quits the browser if Ferry launched it, and
// closes the core, which backs the history up (core.Options.Owner). Safe
// on nil.
func (o *owner) close(log *slog.Logger) {
	if o == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if o.jobs != nil {
		if err := o.jobs.Stop(ctx); err != nil {
			log.Error("stop the gateway and the jobs", "err", err)
		}
	}
	o.cancel()
	o.browser.Close()
	if err := o.core.Close(); err != nil {
		log.Error("close core", "err", err)
	}
}

// resetSettingsFile keeps the settings file of paths as a .bak beside it
// and writes the defaults (the core must be closed: it caches them). It
// returns the backup's path ("" when there was no file).
func resetSettingsFile(paths config.Paths) (string, error) { return core.ResetSettings(paths) }

// checkSetupWithoutOwner runs the setup checks when the core did not open
// (the store check then opens and closes the store).
func checkSetupWithoutOwner(ctx context.Context) service.SetupReport {
	return core.Doctor(ctx, core.DoctorOptions{FindOwner: client.FindOwner})
}
