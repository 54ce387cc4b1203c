package jobs

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// CreateOptions are the decisions about a new job that are not the
// requester's to make.
type CreateOptions struct {
	// AwaitApproval creates the job in service.StateAwaitingApproval: nothing
	// is done with it until ApproveJob.
	AwaitApproval bool
	// Target is where the job runs, as its approval shows it (nil: not
	// resolved).
	Target *service.JobTarget
}

// CreateJob stores a job for spec. With opts.AwaitApproval it stays in
// service.StateAwaitingApproval until ApproveJob; otherwise its run starts at
// once in the background. Errors: errs.BadInput for an incomplete spec
// (no site and no tab), for a code job (not yet served through the hub) or
// for template or contract on an ask job; errs.UnknownSite; store failures.
func (h *Runner) CreateJob(ctx context.Context, spec service.JobRequest, opts CreateOptions) (service.Job, error) {
	if err := h.checkSpec(spec); err != nil {
		return service.Job{}, err
	}
	now := time.Now().UTC()
	rec := jobRecord{ID: "job-" + job.NewID(now), Kind: spec.Kind, Spec: spec, RequestedBy: spec.RequestedBy,
		CreatedAt: now, UpdatedAt: now, State: jobStateStarting, Approval: job.ApprovalNotRequired, Target: opts.Target}
	if opts.AwaitApproval {
		rec.State, rec.Approval = service.StateAwaitingApproval, job.ApprovalPending
	}
	if err := h.jobs.Put(rec); err != nil {
		return service.Job{}, err
	}
	if !opts.AwaitApproval {
		h.start(rec)
	}
	return h.view(ctx, rec), nil
}

// checkSpec refuses a job that cannot run, before anything is stored: the
// request's own rules (its Validate, the one place they are written), then
// what only the owner can look up (the run or conversation it continues,
// the sources, the template, the site and its files).
func (h *Runner) checkSpec(spec service.JobRequest) error {
	if err := spec.Validate(); err != nil {
		return err
	}
	switch spec.Kind {
	case service.KindAsk:
	case service.KindCode:
		return h.checkCodeSpec(spec)
	default:
		return errs.New(errs.BadInput, "a %s job is not created here", spec.Kind).WithHint("resume a run with ReattachSession")
	}
	if spec.Contract != "" {
		return errs.New(errs.BadInput, "contract is not supported on ask jobs").
			WithHint("submit a code job for a contract")
	}
	if spec.SessionID != "" {
		if _, err := h.Followed(context.Background(), spec.SessionID, spec.Site); err != nil {
			return err
		}
	}
	if spec.Conversation != "" {
		if _, err := h.ConversationSite(spec.Conversation, spec.Site); err != nil {
			return err
		}
	}
	if err := checkSources(context.Background(), spec); err != nil {
		return err
	}
	if spec.Template != "" {
		if _, err := h.templates.Render(context.Background(), spec.Template, spec.Vars); err != nil {
			return err
		}
	}
	if spec.Site != "" {
		reg, err := h.pipe.Sites()
		if err != nil {
			return err
		}
		st, err := reg.Get(spec.Site)
		if err != nil {
			return err
		}
		if spec.Effort != "" {
			if _, err := st.Effort(spec.Effort); err != nil {
				return err
			}
		}
		if spec.Tool != "" {
			if _, err := st.Tool(spec.Tool); err != nil {
				return err
			}
		}
		// The files are checked against the site when the job is
		// submitted, not only when it runs.
		if _, _, err := runs.WithFiles(reg, st, spec.Model, spec.Prompt, spec.Files, spec.InlineFiles); err != nil {
			return err
		}
	}
	return nil
}

// start runs rec's job (runs.Pipeline's Ask or RunCode) in the background.
func (h *Runner) start(rec jobRecord) {
	h.startFunc(rec, func(ctx context.Context) { h.run(ctx, rec) })
}

// browserFor is the browser jobs and tab listings use: the fixed one, else
// the source's, else nil (Ask then launches or attaches per run).
func (h *Runner) browserFor(ctx context.Context) (*browser.Browser, error) {
	if h.browser != nil || h.source == nil {
		return h.browser, nil
	}
	return h.source(ctx)
}

func (h *Runner) run(ctx context.Context, rec jobRecord) {
	if rec.Kind == service.KindAsk {
		// The run's deadline holds from the job's start: what comes before
		// the pipeline (the owner's browser, which may have to start or
		// reconnect; the sources' zip; the store's reads) must not make
		// the run outlive it.
		// A deep research gets its own default (RunTimeout), whatever the
		// runner's default for other asks.
		timeout := rec.Spec.RunTimeout()
		if rec.Spec.TimeoutSeconds == 0 && h.defaults.Timeout > 0 && strings.TrimSpace(rec.Spec.Tool) != service.ResearchTool {
			timeout = h.defaults.Timeout
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	origin := job.OriginAgent
	switch rec.RequestedBy {
	case service.OwnerRequester:
		origin = job.OriginCLI
	case service.DesktopRequester:
		origin = job.OriginDesktop
	}
	req := h.defaults
	req.Site, req.Model, req.Prompt, req.TargetID, req.Origin = rec.Spec.Site, rec.Spec.Model, rec.Spec.Prompt, rec.Spec.TabID, origin
	req.NewChat, req.Effort, req.Tool, req.ConfirmPlan = rec.Spec.NewChat, rec.Spec.Effort, rec.Spec.Tool, rec.Spec.ConfirmPlan
	req.Temporary, req.ArchiveAfter = rec.Spec.Temporary, rec.Spec.ArchiveAfter
	req.Project, req.GPT = rec.Spec.Project, rec.Spec.GPT
	if rec.Spec.TimeoutSeconds > 0 {
		req.Timeout = time.Duration(rec.Spec.TimeoutSeconds) * time.Second
	} else if rec.Spec.Tool == service.ResearchTool {
		// A deep research outlasts an owner's default for answers.
		req.Timeout = max(req.Timeout, service.ResearchTimeout)
	}
	if rec.Spec.CooldownSeconds > 0 {
		req.RateLimitCooldown = time.Duration(rec.Spec.CooldownSeconds) * time.Second
	}
	req.Template, req.Vars = rec.Spec.Template, rec.Spec.Vars
	req.Files, req.InlineFiles = rec.Spec.Files, rec.Spec.InlineFiles
	if b := rec.Spec.Browser; b != nil {
		// An in-process caller's browser; a long-lived one (browserFor)
		// still takes precedence.
		req.BrowserURL, req.Chromium, req.Headless, req.BrowserArgs = b.URL, b.Chromium, b.Headless, b.Args
	}
	var sessMu sync.Mutex
	sessionID := ""
	req.OnEvent = func(ev job.Event) {
		sessMu.Lock()
		first := sessionID == ""
		sessionID = ev.Session
		sessMu.Unlock()
		if first {
			// Linking the job to its session must not wait for the run's
			// end: a client polls the job meanwhile.
			h.wg.Add(1)
			go func() {
				defer h.wg.Done()
				h.link(rec.ID, ev.Session)
			}()
		}
		h.emitRun(rec, ev)
	}
	req.Tab.Queued = func(waitingFor string) { h.queued(rec, waitingFor) }
	if origin != job.OriginAgent && rec.Spec.ShownRun != "" {
		// The owner's run goes where the user would (tabs/pref.go).
		if shown, ok := h.shown(ctx, rec.Spec.ShownRun); ok {
			req.Tab.Shown = &shown
		}
	}
	if origin == job.OriginAgent {
		// An agent's new chat or follow-up takes one of its own free tabs
		// when it has one (tabs.Leases.NewChat, Continue); without the list (the
		// store failed) it opens a tab. Its tabs are claimed for it.
		hd, err := h.Holdings(ctx, rec.RequestedBy)
		if err != nil {
			hd = Holdings{}
		}
		req.Tab.Client, req.Tab.Own = rec.RequestedBy, hd.Tabs
	}
	var s *job.Session
	var receipt *codemode.Receipt
	b, err := h.browserFor(ctx)
	if err == nil && rec.Kind == service.KindAsk {
		switch {
		case rec.Spec.SessionID != "":
			err = h.followUp(ctx, rec.Spec.SessionID, &req)
		case rec.Spec.Conversation != "":
			req.Site, err = h.ConversationSite(rec.Spec.Conversation, req.Site)
			req.Continue = rec.Spec.Conversation
		}
	}
	removeZip := func() {}
	if err == nil {
		var zip string
		if zip, removeZip, err = sourceZip(ctx, rec.Spec); zip != "" {
			req.Files = append(append([]string(nil), req.Files...), zip)
		}
	}
	if err == nil {
		req.Browser = b
		if rec.Kind == service.KindCode {
			s, receipt, err = h.runCode(ctx, rec, req)
		} else {
			s, err = h.pipe.Ask(ctx, req)
		}
	}
	// The sources' zip is gone before the job says it ended.
	removeZip()
	wctx := context.WithoutCancel(ctx)
	h.mu.Lock()
	cur, gerr := h.jobs.Get(rec.ID)
	if gerr != nil {
		cur = rec
	}
	if s != nil {
		cur.Session = s.ID
		cur.State = string(s.State)
	}
	cur.Receipt = receipt
	if err != nil {
		cur.Error = errs.From(err)
		if cur.Error.Code == errs.TabAmbiguous {
			cur.Error = h.pipe.NameTabs(cur.Error)
		}
		if s == nil {
			cur.State = string(job.StateFailed)
			if cur.Error.Code == errs.Cancelled {
				cur.State = string(job.StateCancelled)
			}
		}
	}
	cur.UpdatedAt, cur.Ended, cur.Waiting = time.Now().UTC(), true, ""
	_ = h.jobs.Put(cur)
	h.mu.Unlock()
	h.emitEnd(wctx, cur)
}

// shown is run id as the run on screen of a job (false when it cannot be
// read: the job then goes as if none were shown).
func (h *Runner) shown(ctx context.Context, id string) (tabs.Shown, bool) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return tabs.Shown{}, false
	}
	run, err := repo.Get(ctx, id)
	if err != nil {
		return tabs.Shown{}, false
	}
	return tabs.Shown{Site: run.Site, Tab: run.TargetID, Conv: run.ConversationURL, Sent: run.Fingerprint != nil}, true
}

// followUp makes req continue the conversation of run ref: its site, its
// conversation address, its tab preferred. Errors: as Followed.
func (h *Runner) followUp(ctx context.Context, ref string, req *runs.AskRequest) error {
	run, err := h.Followed(ctx, ref, req.Site)
	if err != nil {
		return err
	}
	req.Site, req.Continue, req.TargetID, req.NewChat, req.Parent = run.Site, run.ConversationURL, run.TargetID, false, run
	return nil
}

// ConversationSite is the site of the conversation address conv, which
// must be siteID's when siteID is given. Errors: errs.BadInput for an
// address of no known site or of another site; errs.UnknownSite.
func (h *Runner) ConversationSite(conv, siteID string) (string, error) {
	reg, err := h.pipe.Sites()
	if err != nil {
		return "", err
	}
	u, err := url.Parse(conv)
	if err != nil {
		return "", errs.New(errs.BadInput, "conversation %q is not an address", clipText(conv, 80))
	}
	s, ok := reg.ForHost(u.Hostname())
	if !ok || !s.Allows(s.Current(conv)) {
		return "", errs.New(errs.BadInput, "%s is the address of no known chat site", site.Redact(conv)).
			WithHint("give the address of a conversation on one of the sites `ferry doctor --sites` checks")
	}
	if siteID != "" && siteID != s.ID {
		return "", errs.New(errs.BadInput, "%s is a %s conversation, not %s", site.Redact(conv), s.Name, siteID).
			WithHint("leave the site out to continue the conversation where it is")
	}
	return s.ID, nil
}

// Followed is run ref, which a follow-up on siteID ("": the run's)
// continues. Errors: errs.SessionNotFound, errs.SessionAmbiguous;
// errs.BadInput for a run with no conversation address (it failed before
// the site gave one) or on another site; store failures.
func (h *Runner) Followed(ctx context.Context, ref, siteID string) (*job.Session, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return nil, err
	}
	run, err := repo.Resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	if run.Temporary {
		return nil, errs.New(errs.BadInput, "run %s was asked in a temporary chat, which the site keeps no history of: it cannot be continued", run.ID).
			WithHint("ask in a new chat, with what you need of its answer in the prompt")
	}
	if run.ConversationURL == "" {
		return nil, errs.New(errs.BadInput, "run %s has no conversation to continue", run.ID).
			WithHint("ask in a new chat, or continue a run that got an answer")
	}
	if siteID != "" && siteID != run.Site {
		return nil, errs.New(errs.BadInput, "run %s is a %s conversation, not %s", run.ID, run.Site, siteID).
			WithHint("leave the site out to continue the run where it is")
	}
	return run, nil
}

func (h *Runner) link(jobID, sessionID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rec, err := h.jobs.Get(jobID)
	if err != nil || rec.Session != "" {
		return
	}
	rec.Session, rec.UpdatedAt = sessionID, time.Now().UTC()
	_ = h.jobs.Put(rec)
}

// queued records that job rec waits for waitingFor (its tab, which
// another run drives, or the run going on on a site that takes one at a
// time), or with "" that its wait is over, and reports it as a state event
// of the run: "queued", then "starting".
func (h *Runner) queued(rec jobRecord, waitingFor string) {
	h.mu.Lock()
	cur, err := h.jobs.Get(rec.ID)
	if err != nil || cur.Ended {
		h.mu.Unlock()
		return
	}
	now := time.Now().UTC()
	cur.State, cur.Waiting, cur.UpdatedAt = jobStateQueued, waitingFor, now
	ev := service.RunEvent{Kind: job.EventState, At: now, State: jobStateQueued, Note: "waiting for " + waitingFor}
	if waitingFor == "" {
		cur.State = jobStateStarting
		ev.State, ev.Note = jobStateStarting, "the tab is free"
	}
	err = h.jobs.Put(cur)
	h.mu.Unlock()
	if err != nil {
		return
	}
	h.Publish(service.Event{Type: service.EventRunUpdate, JobID: rec.ID, ClientID: rec.RequestedBy, Time: now, Data: &service.EventData{Run: &ev}})
	h.notify(service.JobEvent{Type: service.EventRunUpdate, JobID: rec.ID, Time: now, Run: &ev})
}
