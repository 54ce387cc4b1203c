package jobs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// The owner's side of ferry poll, watch, reattach, sessions doctor and open:
// the decisions of package runs (PickSession, CheckFresh, Reattach,
// DoctorSessions) and tabs.Leases.OpenSite on the owner's store and
// browser.

// defaultReattachTimeout bounds a reattach job whose request names none
// (as `ferry reattach --timeout`'s default).
const defaultReattachTimeout = 10 * time.Minute

// requestBrowser is the browser a request names: the one at url (attached
// for this request, released by done), else the owner's browser
// (browserFor), else Ferry's own running browser (its profile's
// DevToolsActivePort). Errors: errs.BrowserDisconnected when Ferry's
// browser does not run; the browser's envelopes.
func (h *Runner) requestBrowser(ctx context.Context, url string) (b *browser.Browser, done func(), err error) {
	if url == "" {
		own, err := h.browserFor(ctx)
		if err != nil {
			return nil, nil, err
		}
		if own != nil {
			return own, func() {}, nil
		}
	}
	if url == "" {
		profile := h.d.Paths.ProfileDir()
		if _, err := os.Stat(filepath.Join(profile, "DevToolsActivePort")); err != nil {
			return nil, nil, errs.New(errs.BrowserDisconnected, "Ferry's browser is not running (its profile %s has no DevToolsActivePort)", profile).
				WithHint("start the Ferry app (it runs the browser), or pass --browser-url for a browser started with --remote-debugging-port")
		}
		url = profile
	}
	b, err = browser.Attach(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return b, func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = b.Close(cctx)
	}, nil
}

// SessionCheck is what a poll, a reattach or a doctor of runs asks for.
type SessionCheck struct {
	// Session is the run (an unambiguous id prefix is enough); "" means the
	// only active run (poll, reattach).
	Session string
	// Browser asks poll and doctor to check the run's tab in a browser:
	// BrowserURL, else the owner's browser, else Ferry's own running
	// browser. Reattach always needs one: for an active run without
	// Browser or BrowserURL it is the owner's long-lived browser.
	Browser bool
	// BrowserURL is a browser the owner attaches to for this request.
	BrowserURL string
	// Recover asks doctor to reopen stale runs' conversations in new tabs.
	Recover bool
	// TimeoutMs bounds a reattach (0: the owner's default).
	TimeoutMs int64
	// Launch is how an in-process reattach starts Ferry's browser for a run
	// that lost its own (service.ReattachRequest.Launch).
	Launch *service.BrowserSpec
}

// PollSession checks a run once: with chk.Browser an active run's tab must
// pass the freshness gate. Errors: as runs.PickSession and runs.CheckFresh.
func (h *Runner) PollSession(ctx context.Context, chk SessionCheck) (service.PollResult, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return service.PollResult{}, err
	}
	s, err := runs.PickSession(ctx, repo, chk.Session)
	if err != nil {
		return service.PollResult{}, err
	}
	fresh := false
	if s.State.Active() && chk.Browser {
		reg, err := h.pipe.Sites()
		if err != nil {
			return service.PollResult{}, err
		}
		b, done, err := h.requestBrowser(ctx, chk.BrowserURL)
		if err != nil {
			return service.PollResult{}, err
		}
		defer done()
		if err := runs.CheckFresh(ctx, b, reg, s); err != nil {
			return service.PollResult{}, err
		}
		fresh = true
	}
	return service.PollResult{Session: s, Fresh: fresh}, nil
}

// DoctorSessions runs doctorSessions on the owner's store,
// in the request's browser when chk.Browser.
func (h *Runner) DoctorSessions(ctx context.Context, chk SessionCheck) ([]service.DoctorReport, error) {
	var b *browser.Browser
	var reg *site.Registry
	if chk.Browser {
		var done func()
		var err error
		if b, done, err = h.requestBrowser(ctx, chk.BrowserURL); err != nil {
			return nil, err
		}
		defer done()
		if reg, err = h.pipe.Sites(); err != nil {
			return nil, err
		}
	}
	repo, err := h.d.History(ctx)
	if err != nil {
		return nil, err
	}
	out, err := runs.DoctorSessions(ctx, repo, b, reg, chk.Recover)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReattachSession picks the run at once and resumes it as a job of
// service.KindReattach. A run that has ended needs nothing: the job is ended
// at once with its record; a run the user cancelled while it streamed
// (job.Session.Collectable) is collected, its partial answer completed. A run that a job of this owner is running now
// (an ask of the app, of the CLI or of an agent, or another reattach) is
// not resumed a second time: that job is returned, to be followed, with
// Started false. An active run needs a browser: chk's (Browser or
// BrowserURL), else the long-lived one.
// Errors: as runs.PickSession; errs.BadInput for an active run when neither
// names a browser; store failures.
func (h *Runner) ReattachSession(ctx context.Context, chk SessionCheck, requestedBy string) (service.ReattachResult, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return service.ReattachResult{}, err
	}
	s, err := runs.PickSession(ctx, repo, chk.Session)
	if err != nil {
		return service.ReattachResult{}, err
	}
	if rec, ok := h.runningJobOf(s.ID); ok {
		return service.ReattachResult{Job: h.view(ctx, rec)}, nil
	}
	if (s.State.Active() || s.Collectable()) && !chk.Browser && chk.BrowserURL == "" && !h.HasBrowser() && !s.LostItsTab() && !collectable(s) {
		return service.ReattachResult{}, errs.New(errs.BadInput, "this needs the browser that holds the run's tab: pass --browser-url").
			WithHint("give the ws://127.0.0.1:PORT/devtools/browser/ID address or the profile's DevToolsActivePort file, or --browser attach for Ferry's own browser")
	}
	now := time.Now().UTC()
	spec := service.JobRequest{Kind: service.KindReattach, SessionID: s.ID, RequestedBy: requestedBy}
	rec := jobRecord{ID: "job-" + job.NewID(now), Kind: service.KindReattach, Spec: spec, RequestedBy: requestedBy, Session: s.ID,
		CreatedAt: now, UpdatedAt: now, State: jobStateStarting, Approval: job.ApprovalNotRequired}
	if !s.State.Active() && !s.Collectable() {
		rec.State, rec.Ended = string(s.State), true
	}
	if err := h.jobs.Put(rec); err != nil {
		return service.ReattachResult{}, err
	}
	if !rec.Ended {
		h.startFunc(rec, func(ctx context.Context) { h.runReattach(ctx, rec, chk) })
	}
	return service.ReattachResult{Job: h.view(ctx, rec), Started: true}, nil
}

// runningJobOf finds the job of this owner that runs session id now.
func (h *Runner) runningJobOf(sessionID string) (jobRecord, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id := range h.running {
		if rec, err := h.jobs.Get(id); err == nil && rec.Session == sessionID && !rec.Ended {
			return rec, true
		}
	}
	return jobRecord{}, false
}

// RunsSession reports whether a job of this owner runs session id now
// (and has not recorded its end).
func (h *Runner) RunsSession(id string) bool {
	_, ok := h.runningJobOf(id)
	return ok
}

// startFunc runs fn for job rec in the background, cancellable by
// CancelJob and waited for by Close.
func (h *Runner) startFunc(rec jobRecord, fn func(ctx context.Context)) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(h.runCtx)
	h.running[rec.ID] = cancel
	h.wg.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.wg.Done()
		defer func() {
			h.mu.Lock()
			delete(h.running, rec.ID)
			h.mu.Unlock()
			cancel()
		}()
		fn(ctx)
	}()
}

func (h *Runner) runReattach(ctx context.Context, rec jobRecord, chk SessionCheck) {
	onEvent := func(ev job.Event) {
		if ev.Session != rec.Session {
			return
		}
		h.emitRun(rec, ev)
	}
	finding, err := h.reattachRun(ctx, rec.Session, chk, onEvent)
	wctx := context.WithoutCancel(ctx)
	h.mu.Lock()
	cur, gerr := h.jobs.Get(rec.ID)
	if gerr != nil {
		cur = rec
	}
	cur.Finding = finding
	if err != nil {
		cur.Error = errs.From(err)
	}
	cur.UpdatedAt, cur.Ended = time.Now().UTC(), true
	_ = h.jobs.Put(cur)
	h.mu.Unlock()
	h.emitEnd(wctx, cur)
}

// reattachTimeout bounds the reattach of run s: the request's timeout,
// else a deep research's own default (the research may have most of its
// course to run), else defaultReattachTimeout.
func reattachTimeout(s *job.Session, chk SessionCheck) time.Duration {
	switch {
	case chk.TimeoutMs > 0:
		return time.Duration(chk.TimeoutMs) * time.Millisecond
	case s.ToolRequested == service.ResearchTool:
		return service.ResearchTimeout
	}
	return defaultReattachTimeout
}

func (h *Runner) reattachRun(ctx context.Context, sessionID string, chk SessionCheck, onEvent func(job.Event)) (*job.Finding, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return nil, err
	}
	s, err := repo.Get(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, reattachTimeout(s, chk))
	defer cancel()
	reg, err := h.pipe.Sites()
	if err != nil {
		return nil, err
	}
	b, fresh, done, err := h.reattachBrowser(ctx, s, chk)
	if err != nil {
		return nil, err
	}
	defer done()
	if fresh && !s.LostItsTab() {
		// The browser the run's tab was in is gone with the Ferry that ran
		// it (both killed): journaled as lost, the run's conversation is
		// opened in the browser launched for it.
		if s, err = repo.Update(ctx, s.ID, "", func(x *job.Session) error {
			x.Error = errs.New(errs.BrowserDisconnected, "the browser that held the run's tab was gone when it was reattached").WithEvidence("session", x.ID)
			return nil
		}); err != nil {
			return nil, err
		}
	}
	_, finding, err := h.pipe.Reattach(ctx, b, reg, repo, s, onEvent)
	return finding, err
}

// OpenTab opens site req.Site in a new background tab of the request's
// browser (BrowserURL, else the owner's, else Ferry's running browser) and
// returns it with its address redacted. Errors: errs.UnknownSite; the
// browser's envelopes (errs.Timeout when the page does not load within
// req.TimeoutMs).
func (h *Runner) OpenTab(ctx context.Context, req service.OpenTabRequest) (service.Tab, error) {
	reg, err := h.pipe.Sites()
	if err != nil {
		return service.Tab{}, err
	}
	if _, err := reg.Get(req.Site); err != nil {
		return service.Tab{}, err
	}
	if req.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	b, done, err := h.requestBrowser(ctx, req.BrowserURL)
	if err != nil {
		return service.Tab{}, err
	}
	defer done()
	p, s, err := h.d.Leases.OpenSite(ctx, tabs.Run{}, b, reg, req.Site)
	if err != nil {
		return service.Tab{}, err
	}
	info, err := p.Info(ctx)
	dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer dcancel()
	_ = p.Detach(dctx)
	if err != nil {
		return service.Tab{}, err
	}
	return service.Tab{TargetID: p.ID(), Site: s.ID, URL: site.Redact(info.URL), Title: info.Title}, nil
}

// BrowserEndpoint is the DevTools address of the owner's browser
// (browserFor). Errors: errs.BrowserDisconnected when the owner has none
// (ferry serve without --browser-url launches one per run).
func (h *Runner) BrowserEndpoint(ctx context.Context) (service.BrowserInfo, error) {
	b, err := h.browserFor(ctx)
	if err != nil {
		return service.BrowserInfo{}, err
	}
	if b == nil {
		return service.BrowserInfo{}, errs.New(errs.BrowserDisconnected, "the Ferry owner has no long-lived browser; it launches one per run")
	}
	return service.BrowserInfo{URL: b.Endpoint()}, nil
}

// collectable reports whether s, active, was sent into a conversation
// whose address it journaled: a browser launched for it can open that
// conversation and collect the answer, whatever became of its own.
func collectable(s *job.Session) bool {
	return s.State.Active() && s.State.Sent() && s.ConversationURL != ""
}

// reattachBrowser is the browser a reattach of s resumes it in: the one
// chk.BrowserURL names, else the owner's, else Ferry's own running browser
// (its profile's DevToolsActivePort). A run that lost its browser
// (job.Session.LostItsTab), or a sent run with its conversation whose
// Ferry was killed with its browser, gets Ferry's browser launched when
// none runs, as ask launches it (chk.Launch's options, else the
// owner's defaults), and closed by done; fresh says it was. Errors: errs.BrowserDisconnected
// when no browser runs for a run that cannot be reopened; the browser's
// envelopes.
func (h *Runner) reattachBrowser(ctx context.Context, s *job.Session, chk SessionCheck) (b *browser.Browser, fresh bool, done func(), err error) {
	b, done, err = h.requestBrowser(ctx, chk.BrowserURL)
	if err == nil || chk.BrowserURL != "" || !s.LostItsTab() && !collectable(s) {
		return b, false, done, err
	}
	// Ferry's browser is gone (killed, crashed): its profile may still
	// name the dead one's port.
	req := h.defaults
	if l := chk.Launch; l != nil {
		req.Chromium, req.Headless, req.BrowserArgs = l.Chromium, l.Headless, l.Args
	}
	req.BrowserURL = ""
	if b, err = h.pipe.OpenBrowser(ctx, req); err != nil {
		return nil, false, nil, fmt.Errorf("launch a browser to collect run %s: %w", s.ID, err)
	}
	return b, true, func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		_ = b.Close(cctx)
	}, nil
}
