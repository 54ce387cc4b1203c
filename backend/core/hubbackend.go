package core

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
)

// A hub job is the API's handle on one request: it exists before its run
// (a job awaiting approval has no session yet, and nothing was sent), and
// once the run started it names the session that records it. Jobs live in
// the store under hubjob/<id>, so a job id stays answerable after a restart.
var prefixHubJob = []byte("hubjob/")

func hubJobKey(id string) []byte { return append(append([]byte{}, prefixHubJob...), id...) }

// Job states of the hub's own making; once a run has a session the job
// reports the session's state (job.State values).
const (
	jobStateStarting = "starting" // approved or created by the owner; the run is being set up
	// The run has ended and the job is recording what it found, its error
	// or its receipt; the job's end follows at once.
	jobStateFinishing = "finishing"
)

// jobRecord is a hub job as stored.
type jobRecord struct {
	ID          string         `json:"id"`
	Kind        hub.JobKind    `json:"kind"`
	Spec        hub.JobSpec    `json:"spec"`
	State       string         `json:"state"`
	Approval    job.Approval   `json:"approval"`
	Session     string         `json:"session,omitempty"`
	Error       *errs.Envelope `json:"error,omitempty"`
	Ended       bool           `json:"ended,omitempty"`
	Finding     *job.Finding   `json:"finding,omitempty"` // what a reattach job found
	RequestedBy string         `json:"requestedBy,omitempty"`
	CreatedAt   time.Time      `json:"createdAt"`
	UpdatedAt   time.Time      `json:"updatedAt"`
	Receipt     *CodeReceipt   `json:"receipt,omitempty"` // of a code job
}

// JobDetail is the Detail of a hub.Job from this backend: the job's record
// and, once its run started, the session (the same record `ferry sessions
// show --json` prints).
type JobDetail struct {
	Session  string       `json:"session,omitempty"`
	Approval job.Approval `json:"approval"`
	Spec     hub.JobSpec  `json:"spec"`
	// Ended says the job will not change any more by itself: its run
	// returned, or it was rejected or cancelled before it ran.
	Ended bool         `json:"ended"`
	Run   *job.Session `json:"run,omitempty"`
	// Receipt is a code job's receipt once its run returned (the record
	// `ferry code --json` prints).
	Receipt *CodeReceipt `json:"receipt,omitempty"`
	// Finding is what a reattach job found about the interrupted run.
	Finding *job.Finding `json:"finding,omitempty"`
	// RunError is the error the job's run itself returned (the Job's Error
	// also shows the session's recorded error when the run returned none).
	RunError *errs.Envelope `json:"runError,omitempty"`
}

// SessionExtra is the Extra of a hub.SessionSummary from this backend: the
// whole record and the search hit that found it, and the total number of
// matches, so that a client prints exactly what the embedded CLI prints.
type SessionExtra struct {
	Listed job.Listed `json:"listed"`
	Total  int        `json:"total"`
}

// SessionDetail is the Detail of a hub.Session from this backend: the record
// and its journal.
type SessionDetail struct {
	Session *job.Session `json:"session"`
	Journal []job.Entry  `json:"journal"`
}

// HubOption configures HubBackend.
type HubOption func(*HubBackend)

// WithHubBrowser makes the backend run every job in b (the owner's
// long-lived browser) and list b's tabs. The backend does not close b.
func WithHubBrowser(b *browser.Browser) HubOption { return func(h *HubBackend) { h.browser = b } }

// WithHubBrowserSource makes the backend ask src for the browser of each job
// and of ListTabs when no fixed browser was given (WithHubBrowser): the
// desktop's long-lived browser, connected on first need and reconnected
// after it went away. An error of src fails the job with that envelope. The
// backend never closes what src returns.
func WithHubBrowserSource(src func(ctx context.Context) (*browser.Browser, error)) HubOption {
	return func(h *HubBackend) { h.source = src }
}

// DesktopRequester is the RequestedBy of jobs the desktop app creates for its
// user: their sessions have origin desktop. Paired clients get random ids,
// so none can take this one.
const DesktopRequester = "desktop"

// WithHubAskDefaults sets how runs find a browser when none is attached:
// BrowserURL, Headless, Chromium, BrowserArgs and Timeout of d apply to
// every job (the other fields are ignored).
func WithHubAskDefaults(d AskRequest) HubOption {
	return func(h *HubBackend) {
		h.defaults = AskRequest{BrowserURL: d.BrowserURL, Headless: d.Headless, Chromium: d.Chromium,
			BrowserArgs: d.BrowserArgs, Timeout: d.Timeout}
	}
}

// HubBackend is the core's implementation of hub.Backend and
// hub.EventSource: jobs run through (*Core).Ask, sessions come from the
// journal's repository, artifacts from the artifacts directory. Create it
// with (*Core).HubBackend; Close waits for running jobs to stop.
type HubBackend struct {
	c        *Core
	repo     *job.Repo
	browser  *browser.Browser
	source   func(ctx context.Context) (*browser.Browser, error)
	defaults AskRequest

	mu      sync.Mutex
	running map[string]context.CancelFunc // job id -> cancel of its run
	subs    map[chan hub.Event]struct{}
	closed  bool
	wg      sync.WaitGroup
	runCtx  context.Context
	stopAll context.CancelFunc
}

var (
	_ hub.Backend       = (*HubBackend)(nil)
	_ hub.EventSource   = (*HubBackend)(nil)
	_ hub.PendingLister = (*HubBackend)(nil)
)

// HubBackend returns the hub's view of this core. Jobs that were starting
// or awaiting approval when a previous owner stopped are left as they are
// stored: a job awaiting approval is listed again by PendingApprovals (the
// hub restores its approval list from it at Start) and runs only once
// approved. Errors: as Sessions.
func (c *Core) HubBackend(ctx context.Context, opts ...HubOption) (*HubBackend, error) {
	repo, err := c.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	h := &HubBackend{c: c, repo: repo, running: map[string]context.CancelFunc{}, subs: map[chan hub.Event]struct{}{}}
	for _, o := range opts {
		o(h)
	}
	h.runCtx, h.stopAll = context.WithCancel(context.Background())
	return h, nil
}

// Close cancels running jobs and waits for them to journal their end, at
// most until ctx ends. Event channels are closed.
func (h *HubBackend) Close(ctx context.Context) error {
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
func (h *HubBackend) Events(ctx context.Context) (<-chan hub.Event, error) {
	ch := make(chan hub.Event, 256)
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

func (h *HubBackend) publish(ev hub.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

// CreateJob stores a job for spec. With opts.AwaitApproval it stays in
// hub.StateAwaitingApproval until ApproveJob; otherwise its run starts at
// once in the background. Errors: errs.BadInput for an incomplete spec
// (no site and no tab), for a code job (not yet served through the hub) or
// for template or contract on an ask job; errs.UnknownSite; store failures.
func (h *HubBackend) CreateJob(ctx context.Context, spec hub.JobSpec, opts hub.CreateOptions) (hub.Job, error) {
	if err := h.checkSpec(spec); err != nil {
		return hub.Job{}, err
	}
	now := time.Now().UTC()
	rec := jobRecord{ID: "job-" + job.NewID(now), Kind: spec.Kind, Spec: spec, RequestedBy: spec.RequestedBy,
		CreatedAt: now, UpdatedAt: now, State: jobStateStarting, Approval: job.ApprovalNotRequired}
	if opts.AwaitApproval {
		rec.State, rec.Approval = hub.StateAwaitingApproval, job.ApprovalPending
	}
	if err := h.put(rec); err != nil {
		return hub.Job{}, err
	}
	if !opts.AwaitApproval {
		h.start(rec)
	}
	return h.view(ctx, rec), nil
}

func (h *HubBackend) checkSpec(spec hub.JobSpec) error {
	switch spec.Kind {
	case hub.KindAsk:
	case hub.KindCode:
		return h.checkCodeSpec(spec)
	default:
		return errs.New(errs.BadInput, "unknown job kind %q", spec.Kind)
	}
	if strings.TrimSpace(spec.Prompt) == "" && spec.Template == "" {
		return errs.New(errs.BadInput, "the job has an empty prompt")
	}
	if spec.Site == "" && spec.TabID == "" {
		return errs.New(errs.BadInput, "an ask job needs a site or a tab").WithHint("set \"site\" (e.g. chatgpt) or \"tabId\"")
	}
	if spec.NewChat && (spec.Site == "" || spec.TabID != "") {
		return errs.New(errs.BadInput, "newChat needs a site and no tab: a new chat opens its own tab")
	}
	if spec.TimeoutSeconds < 0 {
		return errs.New(errs.BadInput, "timeoutSeconds must be positive, got %d", spec.TimeoutSeconds)
	}
	if c := time.Duration(spec.CooldownSeconds) * time.Second; c != 0 && (c < config.MinRateLimitCooldown || c > config.MaxRateLimitCooldown) {
		return errs.New(errs.BadInput, "cooldownSeconds must be between %d and %d, got %d",
			int(config.MinRateLimitCooldown.Seconds()), int(config.MaxRateLimitCooldown.Seconds()), spec.CooldownSeconds)
	}
	if spec.Contract != "" || spec.SessionID != "" {
		return errs.New(errs.BadInput, "contract and sessionId are not supported on ask jobs through the hub yet").
			WithHint("submit a code job for a contract")
	}
	if spec.Template != "" {
		if _, err := h.c.RenderTemplate(context.Background(), spec.Template, spec.Vars); err != nil {
			return err
		}
	}
	if spec.Site != "" {
		reg, err := h.c.Sites()
		if err != nil {
			return err
		}
		if _, err := reg.Get(spec.Site); err != nil {
			return err
		}
	}
	return nil
}

// start runs rec's prompt through (*Core).Ask in the background.
func (h *HubBackend) start(rec jobRecord) {
	h.startFunc(rec, func(ctx context.Context) { h.run(ctx, rec) })
}

// browserFor is the browser jobs and tab listings use: the fixed one, else
// the source's, else nil (Ask then launches or attaches per run).
func (h *HubBackend) browserFor(ctx context.Context) (*browser.Browser, error) {
	if h.browser != nil || h.source == nil {
		return h.browser, nil
	}
	return h.source(ctx)
}

func (h *HubBackend) run(ctx context.Context, rec jobRecord) {
	origin := job.OriginAgent
	switch rec.RequestedBy {
	case hub.OwnerClientID:
		origin = job.OriginCLI
	case DesktopRequester:
		origin = job.OriginDesktop
	}
	req := h.defaults
	req.Site, req.Model, req.Prompt, req.TargetID, req.Origin = rec.Spec.Site, rec.Spec.Model, rec.Spec.Prompt, rec.Spec.TabID, origin
	req.NewChat = rec.Spec.NewChat
	if rec.Spec.TimeoutSeconds > 0 {
		req.Timeout = time.Duration(rec.Spec.TimeoutSeconds) * time.Second
	}
	if rec.Spec.CooldownSeconds > 0 {
		req.RateLimitCooldown = time.Duration(rec.Spec.CooldownSeconds) * time.Second
	}
	req.Template, req.Vars = rec.Spec.Template, rec.Spec.Vars
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
		typ := hub.EventRunUpdate
		if ev.Kind == job.EventPartial {
			typ = hub.EventRunPartial
		}
		data, _ := json.Marshal(ev)
		h.publish(hub.Event{Type: typ, JobID: rec.ID, ClientID: rec.RequestedBy, Time: ev.At, Data: data})
	}
	var s *job.Session
	var receipt *CodeReceipt
	b, err := h.browserFor(ctx)
	if err == nil {
		req.Browser = b
		if rec.Kind == hub.KindCode {
			s, receipt, err = h.runCode(ctx, rec, req)
		} else {
			s, err = h.c.Ask(ctx, req)
		}
	}
	wctx := context.WithoutCancel(ctx)
	h.mu.Lock()
	cur, gerr := h.get(rec.ID)
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
		if s == nil {
			cur.State = string(job.StateFailed)
			if cur.Error.Code == errs.Cancelled {
				cur.State = string(job.StateCancelled)
			}
		}
	}
	cur.UpdatedAt, cur.Ended = time.Now().UTC(), true
	_ = h.put(cur)
	h.mu.Unlock()
	data, _ := json.Marshal(h.view(wctx, cur))
	h.publish(hub.Event{Type: hub.EventRunUpdate, JobID: rec.ID, ClientID: rec.RequestedBy, Data: data})
}

func (h *HubBackend) link(jobID, sessionID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rec, err := h.get(jobID)
	if err != nil || rec.Session != "" {
		return
	}
	rec.Session, rec.UpdatedAt = sessionID, time.Now().UTC()
	_ = h.put(rec)
}

func (h *HubBackend) put(rec jobRecord) error {
	val, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", rec.ID, err)
	}
	if err := h.c.Store().Put(hubJobKey(rec.ID), val); err != nil {
		return fmt.Errorf("store job %s: %w", rec.ID, err)
	}
	return nil
}

func (h *HubBackend) get(id string) (jobRecord, error) {
	if store.ValidID(id) != nil {
		return jobRecord{}, errs.New(errs.HubNotFound, "no job %q", clipText(id, 80))
	}
	val, err := h.c.Store().Get(hubJobKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return jobRecord{}, errs.New(errs.HubNotFound, "no job %q", id)
	}
	if err != nil {
		return jobRecord{}, err
	}
	var rec jobRecord
	if err := json.Unmarshal(val, &rec); err != nil {
		return jobRecord{}, errs.Wrap(err, errs.StoreCorrupt, "decode job %s: %v", id, err).WithStage(errs.StageStore)
	}
	return rec, nil
}

// view is rec as the API shows it: with its session's live state once the
// run has one. A job this backend still runs whose session has just ended
// shows jobStateFinishing until the job has recorded its end (what a
// reattach found, the run's error, a code step's receipt): a client that
// stops polling at the session's end must not miss them. Not to be called
// with h.mu held.
func (h *HubBackend) view(ctx context.Context, rec jobRecord) hub.Job {
	d := JobDetail{Session: rec.Session, Approval: rec.Approval, Spec: rec.Spec, Ended: rec.Ended, Finding: rec.Finding, RunError: rec.Error, Receipt: rec.Receipt}
	out := hub.Job{ID: rec.ID, Kind: rec.Kind, State: rec.State, RequestedBy: rec.RequestedBy,
		CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, Error: rec.Error}
	if rec.Session != "" {
		if s, err := h.repo.Get(ctx, rec.Session); err == nil {
			d.Run = s
			out.State = string(s.State)
			if !rec.Ended && (s.State.Terminal() || s.State == job.StateStale) && h.isRunning(rec.ID) {
				out.State = jobStateFinishing
			}
			if s.Updated.After(out.UpdatedAt) {
				out.UpdatedAt = s.Updated
			}
			if out.Error == nil && s.Error != nil {
				out.Error = s.Error
			}
		}
	}
	out.Detail, _ = json.Marshal(d)
	return out
}

// GetJob returns the job id with its run's current state. Errors:
// errs.HubNotFound; errs.StoreCorrupt; store failures.
func (h *HubBackend) GetJob(ctx context.Context, id string) (hub.Job, error) {
	rec, err := h.get(id)
	if err != nil {
		return hub.Job{}, err
	}
	return h.view(ctx, rec), nil
}

// CancelJob stops a running job (its run journals cancelled, or stays
// collectable when its prompt was already sent) or ends a job awaiting
// approval as cancelled. A finished job is returned unchanged. Errors: as
// GetJob.
func (h *HubBackend) CancelJob(ctx context.Context, id string) (hub.Job, error) {
	h.mu.Lock()
	rec, err := h.get(id)
	if err != nil {
		h.mu.Unlock()
		return hub.Job{}, err
	}
	cancel := h.running[id]
	if rec.State == hub.StateAwaitingApproval {
		rec.State, rec.UpdatedAt, rec.Ended = string(job.StateCancelled), time.Now().UTC(), true
		rec.Error = errs.New(errs.Cancelled, "job %s was cancelled before it was approved", id)
		if err := h.put(rec); err != nil {
			h.mu.Unlock()
			return hub.Job{}, err
		}
	}
	h.mu.Unlock()
	if cancel != nil {
		cancel()
		h.waitStopped(ctx, id)
	}
	return h.GetJob(ctx, id)
}

// RunningJobs returns the jobs whose run goes on in this backend now (the
// desktop's, the CLI's and agents' alike), oldest first. A job awaiting
// approval is not running; a job left unended by an earlier owner is not
// either. Errors: none (a job whose record cannot be read is left out).
func (h *HubBackend) RunningJobs(ctx context.Context) []hub.Job {
	h.mu.Lock()
	ids := make([]string, 0, len(h.running))
	for id := range h.running {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	out := make([]hub.Job, 0, len(ids))
	for _, id := range ids {
		if rec, err := h.get(id); err == nil {
			out = append(out, h.view(ctx, rec))
		}
	}
	slices.SortFunc(out, func(a, b hub.Job) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// isRunning reports whether job id runs in this backend now.
func (h *HubBackend) isRunning(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.running[id]
	return ok
}

// waitStopped waits (briefly) for a cancelled run to journal its end, so
// that the answer to a cancel shows the new state.
func (h *HubBackend) waitStopped(ctx context.Context, id string) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if !h.isRunning(id) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// PendingApprovals lists the stored jobs that await approval, oldest
// first, with their specs (hub.PendingLister). Errors: errs.StoreCorrupt
// for a record that does not decode; store failures.
func (h *HubBackend) PendingApprovals(ctx context.Context) ([]hub.PendingJob, error) {
	var recs []jobRecord
	err := h.c.Store().Scan(prefixHubJob, func(key, val []byte) error {
		var rec jobRecord
		if err := json.Unmarshal(val, &rec); err != nil {
			return errs.Wrap(err, errs.StoreCorrupt, "decode job %q: %v", key, err).WithStage(errs.StageStore)
		}
		if rec.State == hub.StateAwaitingApproval {
			recs = append(recs, rec)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(recs, func(a, b jobRecord) int { return a.CreatedAt.Compare(b.CreatedAt) })
	out := make([]hub.PendingJob, 0, len(recs))
	for _, rec := range recs {
		out = append(out, hub.PendingJob{Job: h.view(ctx, rec), Spec: rec.Spec})
	}
	return out, nil
}

// ApproveJob starts a job that awaits approval. Errors: errs.HubNotFound;
// errs.BadInput when the job does not await approval; store failures.
func (h *HubBackend) ApproveJob(ctx context.Context, id string) (hub.Job, error) {
	h.mu.Lock()
	rec, err := h.get(id)
	if err == nil && rec.State != hub.StateAwaitingApproval {
		err = errs.New(errs.BadInput, "job %s is %s, not awaiting approval", id, rec.State)
	}
	if err == nil {
		rec.State, rec.Approval, rec.UpdatedAt = jobStateStarting, job.ApprovalApproved, time.Now().UTC()
		err = h.put(rec)
	}
	h.mu.Unlock()
	if err != nil {
		return hub.Job{}, err
	}
	h.start(rec)
	return h.view(ctx, rec), nil
}

// RejectJob ends a job that awaits approval without running it: failed,
// with an errs.ApprovalRejected envelope carrying reason. Errors: as
// ApproveJob.
func (h *HubBackend) RejectJob(ctx context.Context, id, reason string) (hub.Job, error) {
	rec, err := h.reject(id, reason)
	if err != nil {
		return hub.Job{}, err
	}
	return h.view(ctx, rec), nil
}

// reject records the rejection of job id under h.mu.
func (h *HubBackend) reject(id, reason string) (jobRecord, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rec, err := h.get(id)
	if err != nil {
		return jobRecord{}, err
	}
	if rec.State != hub.StateAwaitingApproval {
		return jobRecord{}, errs.New(errs.BadInput, "job %s is %s, not awaiting approval", id, rec.State)
	}
	msg := "the user rejected job " + id
	if strings.TrimSpace(reason) != "" {
		msg += ": " + reason
	}
	rec.State, rec.Approval, rec.UpdatedAt, rec.Ended = string(job.StateFailed), job.ApprovalRejected, time.Now().UTC(), true
	rec.Error = errs.New(errs.ApprovalRejected, "%s", msg).WithEvidence("job", id)
	if err := h.put(rec); err != nil {
		return jobRecord{}, err
	}
	return rec, nil
}

// Filters that SearchSessions reads from its query: "site:ID" and
// "state:STATE" words narrow the results, the other words are the fuzzy
// text. A query of filters only lists the matching runs newest first.
const (
	filterSite  = "site:"
	filterState = "state:"
)

// ListSessions lists runs newest first, or best match first with q.Query,
// exactly as `ferry sessions list` does. Errors: as job.Repo.List
// (errs.BadInput for an unknown state).
func (h *HubBackend) ListSessions(ctx context.Context, q hub.SessionQuery) ([]hub.SessionSummary, error) {
	return h.list(ctx, job.Filter{Site: q.Site, State: job.State(q.State), Query: q.Query, Limit: q.Limit})
}

// SearchSessions searches runs; see filterSite and filterState for the
// filter words it understands. Errors: as job.Repo.List (errs.BadInput for
// an unknown state).
func (h *HubBackend) SearchSessions(ctx context.Context, query string, limit int) ([]hub.SessionSummary, error) {
	f := job.Filter{Limit: limit}
	var text []string
	for _, w := range strings.Fields(query) {
		switch {
		case strings.HasPrefix(w, filterSite) && len(w) > len(filterSite):
			f.Site = w[len(filterSite):]
		case strings.HasPrefix(w, filterState) && len(w) > len(filterState):
			f.State = job.State(w[len(filterState):])
		default:
			text = append(text, w)
		}
	}
	f.Query = strings.Join(text, " ")
	return h.list(ctx, f)
}

func (h *HubBackend) list(ctx context.Context, f job.Filter) ([]hub.SessionSummary, error) {
	items, total, err := h.repo.List(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]hub.SessionSummary, 0, len(items))
	for _, it := range items {
		sum := summaryOf(it.Session)
		sum.Extra, err = json.Marshal(SessionExtra{Listed: it, Total: total})
		if err != nil {
			return nil, fmt.Errorf("encode session %s: %w", it.Session.ID, err)
		}
		out = append(out, sum)
	}
	return out, nil
}

func summaryOf(s *job.Session) hub.SessionSummary {
	return hub.SessionSummary{ID: s.ID, Site: s.Site, Title: clipText(strings.Join(strings.Fields(s.Prompt), " "), 80), UpdatedAt: s.Updated}
}

// ShowSession returns a run (an unambiguous id prefix is enough) with its
// journal. Errors: errs.SessionNotFound, errs.SessionAmbiguous.
func (h *HubBackend) ShowSession(ctx context.Context, id string) (hub.Session, error) {
	s, err := h.repo.Resolve(ctx, id)
	if err != nil {
		return hub.Session{}, err
	}
	j, err := h.repo.Journal(ctx, s.ID)
	if err != nil {
		return hub.Session{}, err
	}
	d, err := json.Marshal(SessionDetail{Session: s, Journal: j})
	if err != nil {
		return hub.Session{}, fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	return hub.Session{SessionSummary: summaryOf(s), Detail: d}, nil
}

// ListTabs lists the tabs of the long-lived browser (WithHubBrowser, or
// WithHubBrowserSource's, connecting it if needed), each with the site its
// address belongs to and its address redacted (site.Redact). Without either (the owner launches a browser per run)
// there is nothing to list: an empty list. Errors: the source's envelopes;
// BrowserDisconnected.
func (h *HubBackend) ListTabs(ctx context.Context) ([]hub.Tab, error) {
	b, err := h.browserFor(ctx)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return []hub.Tab{}, nil
	}
	reg, err := h.c.Sites()
	if err != nil {
		return nil, err
	}
	targets, err := b.Targets(ctx, func(host string) string {
		if s, ok := reg.ForHost(host); ok {
			return s.ID
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	out := make([]hub.Tab, 0, len(targets))
	for _, t := range targets {
		// Addresses without query, fragment and userinfo, where sites put
		// one-off tokens: agents read this list too.
		out = append(out, hub.Tab{TargetID: t.ID, Site: t.Site, URL: site.Redact(t.URL), Title: t.Title})
	}
	return out, nil
}

// HasBrowser reports whether jobs run in a long-lived browser (fixed or
// from a source), so that ListTabs can list tabs.
func (h *HubBackend) HasBrowser() bool { return h.browser != nil || h.source != nil }

// OpenArtifact opens artifact name of job jobID: a file the job's run
// recorded, inside the artifacts directory, with a provenance sidecar whose
// verdict is OK and whose SHA-256 matches the file's bytes. Only then is
// Verified true. Errors: errs.HubNotFound (no such job), errs.ArtifactNotFound
// (the run recorded no such artifact, or its file is gone),
// errs.ArtifactUnsafe (outside the artifacts directory, or a symlink).
func (h *HubBackend) OpenArtifact(ctx context.Context, jobID, name string) (hub.ArtifactInfo, io.ReadCloser, error) {
	rec, err := h.get(jobID)
	if err != nil {
		return hub.ArtifactInfo{}, nil, err
	}
	notFound := errs.New(errs.ArtifactNotFound, "job %s has no artifact %q", jobID, clipText(name, 80))
	if rec.Session == "" {
		return hub.ArtifactInfo{}, nil, notFound
	}
	s, err := h.repo.Get(ctx, rec.Session)
	if err != nil {
		return hub.ArtifactInfo{}, nil, err
	}
	var found *job.Artifact
	for i := range s.Artifacts {
		a := &s.Artifacts[i]
		if a.Name == name || filepath.Base(a.Path) == name {
			found = a
			break
		}
	}
	if found == nil || found.Path == "" {
		return hub.ArtifactInfo{}, nil, notFound
	}
	return openVerified(h.artifactsDir(), found.Path, name)
}

// openVerified opens path (which must lie in dir, not through a symlink)
// and checks it against its provenance sidecar.
func openVerified(dir, path, name string) (hub.ArtifactInfo, io.ReadCloser, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return hub.ArtifactInfo{}, nil, errs.Wrap(err, errs.ArtifactNotFound, "open artifacts directory %s: %v", dir, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return hub.ArtifactInfo{}, nil, errs.Wrap(err, errs.ArtifactUnsafe, "resolve artifact %q: %v", name, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return hub.ArtifactInfo{}, nil, errs.Wrap(err, errs.ArtifactNotFound, "artifact %q is gone: %v", name, err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == "." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == ".." || real != filepath.Clean(abs) {
		return hub.ArtifactInfo{}, nil, errs.New(errs.ArtifactUnsafe, "artifact %q is not a plain file in the artifacts directory", name).
			WithEvidence("path", path)
	}
	if strings.HasPrefix(rel, quarantineDir+string(filepath.Separator)) {
		return hub.ArtifactInfo{}, nil, errs.New(errs.ArtifactUnsafe, "artifact %q is quarantined", name)
	}
	info := hub.ArtifactInfo{Name: filepath.Base(real)}
	side, err := os.ReadFile(real + sidecarSuffix)
	var prov sidecar
	if err == nil {
		err = json.Unmarshal(side, &prov)
	}
	f, ferr := os.Open(real)
	if ferr != nil {
		return hub.ArtifactInfo{}, nil, errs.Wrap(ferr, errs.ArtifactNotFound, "open artifact %q: %v", name, ferr)
	}
	data, rerr := io.ReadAll(f)
	f.Close()
	if rerr != nil {
		return hub.ArtifactInfo{}, nil, errs.Wrap(rerr, errs.ArtifactNotFound, "read artifact %q: %v", name, rerr)
	}
	sum := sha256.Sum256(data)
	info.Size, info.SHA256 = int64(len(data)), hex.EncodeToString(sum[:])
	info.Verified = err == nil && !prov.Quarantined && prov.Verdict != nil && prov.Verdict.OK &&
		strings.EqualFold(prov.SHA256, info.SHA256) && prov.Size == info.Size
	return info, io.NopCloser(bytes.NewReader(data)), nil
}

// The provenance sidecar as package artifact writes it beside every saved
// zip (artifact.Provenance, artifact.SidecarSuffix, artifact.QuarantineDir):
// only the fields the hub checks are read here, so that serving artifacts
// does not pull the downloader and verifier into every owner.
const (
	sidecarSuffix = ".provenance.json"
	quarantineDir = "quarantine"
)

type sidecar struct {
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
	Quarantined bool   `json:"quarantined,omitempty"`
	Verdict     *struct {
		OK bool `json:"ok"`
	} `json:"verdict"`
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// StoreClients keeps the hub's paired clients in the store under
// client/<id>, tokens only as SHA-256 digests, so that pairings survive a
// restart of the owner. It implements hub.ClientStore.
type StoreClients struct{ st *store.Store }

var _ hub.ClientStore = StoreClients{}

// HubClients returns the client registry in this core's store.
func (c *Core) HubClients() StoreClients { return StoreClients{st: c.Store()} }

// Put creates or replaces rec. Errors: errs.BadInput for an invalid id;
// store failures.
func (s StoreClients) Put(ctx context.Context, rec hub.ClientRecord) error {
	if err := store.ValidID(rec.ID); err != nil {
		return errs.Wrap(err, errs.BadInput, "client id: %v", err)
	}
	val, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode client %s: %w", rec.ID, err)
	}
	if err := s.st.Put(store.ClientKey(rec.ID), val); err != nil {
		return fmt.Errorf("store client %s: %w", rec.ID, err)
	}
	return nil
}

// Get returns the client id. Errors: errs.HubNotFound; errs.StoreCorrupt.
func (s StoreClients) Get(ctx context.Context, id string) (hub.ClientRecord, error) {
	if store.ValidID(id) != nil {
		return hub.ClientRecord{}, errs.New(errs.HubNotFound, "no paired client has id %q", clipText(id, 80))
	}
	val, err := s.st.Get(store.ClientKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return hub.ClientRecord{}, errs.New(errs.HubNotFound, "no paired client has id %q", id)
	}
	if err != nil {
		return hub.ClientRecord{}, err
	}
	var rec hub.ClientRecord
	if err := json.Unmarshal(val, &rec); err != nil {
		return hub.ClientRecord{}, errs.Wrap(err, errs.StoreCorrupt, "decode client %s: %v", id, err).WithStage(errs.StageStore)
	}
	return rec, nil
}

// List returns every client, oldest first. Errors: errs.StoreCorrupt;
// store failures.
func (s StoreClients) List(ctx context.Context) ([]hub.ClientRecord, error) {
	var out []hub.ClientRecord
	err := s.st.Scan(store.PrefixClient, func(key, val []byte) error {
		var rec hub.ClientRecord
		if err := json.Unmarshal(val, &rec); err != nil {
			return errs.Wrap(err, errs.StoreCorrupt, "decode client %q: %v", key, err).WithStage(errs.StageStore)
		}
		out = append(out, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sortClients(out)
	return out, nil
}

func sortClients(recs []hub.ClientRecord) {
	slices.SortFunc(recs, func(a, b hub.ClientRecord) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
