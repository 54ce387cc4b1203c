package job

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/site"
)

// TurnFinder is implemented by adapters that can find, in the conversation
// their tab shows, the user turn that holds a prompt already sent, without
// sending anything. Reattach needs it for runs interrupted at or after
// submitting.
//
// FindTurn looks for the latest user turn whose text holds prompt (compared
// with whitespace collapsed) and that may have been sent at or after since
// (sites that show no times ignore since). When found it returns a Turn that
// Wait and Extract accept, as if Submit had returned it, and true. When the
// conversation certainly holds no such turn it returns nil, false, nil.
// Errors (the tab gone, the page not loaded) leave the question open and
// must be envelopes.
type TurnFinder interface {
	FindTurn(ctx context.Context, prompt string, since time.Time) (*provider.Turn, bool, error)
}

// ConversationLocator is implemented by adapters that can tell the address
// of the conversation their tab shows ("" while it has none). The Runner
// records it in the session as soon as the page shows it while the answer
// streams (and again when the turn completes), so that `ferry sessions
// doctor --recover` can reopen the conversation when the tab is gone, even
// mid-stream.
type ConversationLocator interface {
	ConversationURL(ctx context.Context) (string, error)
}

// Finding is what Reattach found about an interrupted run.
type Finding = record.Finding

// Spec describes a new run.
type Spec struct {
	ID              string
	Site            string
	Model           string // the alias asked for ("" = whatever is selected)
	Effort          string // the effort tier asked for ("" = whatever is selected)
	Tool            string // the site's tool to switch on for the prompt ("" = none)
	TargetID        string
	ConversationURL string
	Prompt          string
	Task            string // the user's words that Prompt wraps, if it does
	Template        string
	Contract        string
	Deadline        time.Time
	Origin          Origin
	Approval        Approval
	CodeMode        bool
	Temporary       bool          // in the site's temporary chat (record.Run.Temporary)
	ArchiveAfter    bool          // archive the conversation once the answer is safe
	ConfirmPlan     bool          // start a deep research's plan at once
	Place           *record.Place // the project or custom GPT of its new chat
	// RequestedTab and TabWasCreated feed the routing proof.
	RequestedTab  string
	TabWasCreated bool
	// Parent and Thread: the run this one follows up and its thread's
	// first run (see Session).
	Parent, Thread string
	// Attachments are the files sent with the prompt, already checked
	// (attach.Prepare).
	Attachments []attach.File
}

// Runner drives runs through the pipeline and reports their events.
type Runner struct {
	bus
	repo    *Repo
	now     func() time.Time
	policy  policyConfig
	deliver Deliverable // see WithDeliverable
	// noScreenshot leaves the screenshot out of failure snapshots (see
	// WithoutFailureScreenshots).
	noScreenshot bool
}

// NewRunner returns a Runner over repo, with the interstitial policies'
// settings from opts (WithRateLimitCooldown, WithFreshTab).
func NewRunner(repo *Repo, opts ...RunnerOption) *Runner {
	r := &Runner{repo: repo, now: time.Now, policy: policyConfig{cooldown: interstitial.DefaultCooldown}}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Repo is the repository the Runner writes to.
func (r *Runner) Repo() *Repo { return r.repo }

// Create stores a new run in state resolved. Errors as Repo.Create.
func (r *Runner) Create(ctx context.Context, sp Spec) (*Session, error) {
	s := &Session{
		ID: sp.ID, Site: sp.Site, ModelRequested: sp.Model, EffortRequested: sp.Effort, ToolRequested: sp.Tool, TargetID: sp.TargetID, ConversationURL: sp.ConversationURL,
		Prompt: sp.Prompt, Task: sp.Task, Template: sp.Template, Contract: sp.Contract, Deadline: sp.Deadline,
		Origin: sp.Origin, Approval: sp.Approval, CodeMode: sp.CodeMode, Temporary: sp.Temporary, ArchiveAfter: sp.ArchiveAfter, ConfirmPlan: sp.ConfirmPlan, Place: sp.Place, State: StateResolved,
		Parent: sp.Parent, Thread: sp.Thread, Attachments: sp.Attachments,
		Routing: &provider.Routing{RequestedTabID: sp.RequestedTab, ControlledTabID: sp.TargetID, TabWasCreated: sp.TabWasCreated},
	}
	if sp.Temporary {
		s.Warnings = append(s.Warnings, "asked in a temporary chat: the site keeps no history of it, this record is the only copy")
	}
	out, err := r.repo.Create(ctx, s)
	if err == nil {
		r.publish(Event{Session: out.ID, Kind: EventState, At: out.Created, State: out.State, Note: "created"})
	}
	return out, err
}

// Run drives session id from state resolved to done with a, whose tab must
// be the session's TargetID. It returns the final record. Every failure is
// an errs envelope and is journaled (failed, or cancelled when ctx was
// cancelled before the prompt was sent). A deadline or cancellation after
// the send leaves the run in its state, still collectable by Reattach.
//
// A full disk: a write refused before the send stops the run with the
// store's errs.DiskFull (nothing is sent); once the prompt was sent the run
// goes on in memory (see Repo.Held), returns its record with the answer,
// and its error is errs.DiskFull saying up to which state it was journaled
// (unless the run failed of its own, whose error then stands).
func (r *Runner) Run(ctx context.Context, id string, a provider.Adapter) (*Session, error) {
	s, err := r.repo.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.State != StateResolved {
		return s, errs.New(errs.BadInput, "session %s is %s, not resolved: use Reattach to resume it", id, s.State)
	}
	out, err := r.drive(withSiteOf(ctx, a), s, a, nil)
	if err != nil && out != nil && out.State != StateDone && out.State != StateCancelled && pastPreflight(s, a) {
		r.snapshot(ctx, out, a)
	}
	return r.settle(ctx, out, err)
}

// pastPreflight reports whether run s got past the checks that need no
// page (its tab, the capability check) with a, so that its failure, if
// any, is one a snapshot of the page can explain.
func pastPreflight(s *Session, a provider.Adapter) bool {
	if s.TargetID != "" && a.TargetID() != s.TargetID {
		return false
	}
	var features []site.Feature
	if s.CodeMode {
		features = append(features, site.FeatureCodeArtifacts)
	}
	_, err := provider.Preflight(a, s.ModelRequested, features...)
	return err == nil
}

// ReattachOption configures Reattach.
type ReattachOption func(*reattachConfig)

type reattachConfig struct{ finder TurnFinder }

// WithTurnFinder gives Reattach a finder for adapters that do not implement
// TurnFinder themselves.
func WithTurnFinder(f TurnFinder) ReattachOption { return func(c *reattachConfig) { c.finder = f } }

// Reattach resumes session id with a, never sending its prompt twice, and
// returns the final record and what it found. Before submitting it redoes
// the run from the start; at submitting it searches the conversation for the
// user turn and sends only when the turn is proved absent; from submitted on
// it only collects. Errors: errs.SessionStale for a stale run (run the
// doctor); errs.SendUnconfirmed when the run is at submitting and neither a
// is a TurnFinder nor one was given (nothing is sent then); errs.
// CapabilityMissing when a sent run must be collected without a finder, or
// when a code-mode run stopped at artifacts_retrieved and the Runner has no
// Deliverable (see resumeDelivery); and the run's own failures as in Run.
func (r *Runner) Reattach(ctx context.Context, id string, a provider.Adapter, opts ...ReattachOption) (*Session, *Finding, error) {
	ctx = withSiteOf(ctx, a)
	s, f, err := r.reattach(ctx, id, a, opts...)
	s, err = r.settle(ctx, s, err)
	return s, f, err
}

func (r *Runner) reattach(ctx context.Context, id string, a provider.Adapter, opts ...ReattachOption) (*Session, *Finding, error) {
	var c reattachConfig
	if f, ok := a.(TurnFinder); ok {
		c.finder = f
	}
	for _, o := range opts {
		o(&c)
	}
	s, err := r.repo.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	f := &Finding{From: s.State}
	switch {
	case s.Collectable():
		// Cancelled while it streamed: the sent path below collects the
		// rest from the state it was cancelled in.
		if s, err = r.resumeCancelled(ctx, s); err != nil {
			return nil, f, err
		}
	case s.State.Terminal():
		f.Action, f.Detail = "none", fmt.Sprintf("the run already ended (%s)", s.State)
		r.finding(s.ID, f)
		return s, f, nil
	case s.State == StateStale:
		return s, f, errs.New(errs.SessionStale, "session %s is stale: its tab is gone or left the site", id).WithEvidence("session", id)
	case s.State.Unsent():
		f.Action, f.Detail = "redo", fmt.Sprintf("interrupted at %s, before anything was sent: starting the run again", s.State)
		r.finding(s.ID, f)
		if s.State != StateResolved {
			if s, err = r.move(ctx, s.ID, StateResolved, "reattach: redo, nothing was sent", nil); err != nil {
				return nil, f, err
			}
		}
		s, err = r.drive(ctx, s, a, nil)
		return s, f, err
	case s.State == StateExtracted || s.State == StateArtifactsRetrieved || s.State == StateArtifactsVerified:
		s, err = r.resumeDelivery(ctx, s, a, f)
		return s, f, err
	}

	// submitting, submitted, streaming, completed: the conversation holds
	// (or may hold) the user turn.
	if c.finder == nil {
		if s.State == StateSubmitting {
			return s, f, errs.New(errs.SendUnconfirmed, "session %s stopped while sending and the %s adapter cannot look for the user turn; nothing was sent again", id, s.Site).
				WithEvidence("session", id).WithHint("check the tab for the prompt before running it again")
		}
		return s, f, errs.New(errs.CapabilityMissing, "session %s was sent, but the %s adapter cannot find a sent turn to collect its answer", id, s.Site).
			WithEvidence("session", id)
	}
	since := s.Created
	if s.Fingerprint != nil {
		since = s.Fingerprint.At
	}
	if out, handled, err := r.resumeRetry(ctx, s, a, f); handled || err != nil {
		return out, f, err
	}
	turn, found, err := c.finder.FindTurn(ctx, s.Prompt, since)
	f.Looked = true
	if err != nil {
		f.Action, f.Detail = "none", "could not search the conversation: "+errs.From(err).Message
		r.finding(s.ID, f)
		return s, f, err
	}
	f.Found = found
	if !found {
		if s.State != StateSubmitting {
			f.Action, f.Detail = "none", fmt.Sprintf("the run was %s but its user turn is not in the conversation the tab shows; nothing was sent again", s.State)
			r.finding(s.ID, f)
			return s, f, errs.New(errs.SessionStale, "session %s: the tab no longer shows the conversation holding its prompt", id).
				WithEvidence("session", id).WithEvidence("target", s.TargetID)
		}
		f.Action, f.Detail = "send", "the user turn is not in the conversation: the click never happened; sending the prompt now"
		r.finding(s.ID, f)
		if s, err = r.move(ctx, s.ID, StateResolved, "reattach: user turn absent, the prompt was not sent", nil); err != nil {
			return nil, f, err
		}
		s, err = r.drive(ctx, s, a, nil)
		return s, f, err
	}
	f.Action = "collect"
	if s.State == StateSubmitting {
		f.Detail = "found the user turn: the prompt was sent before the interruption; collecting its answer without sending again"
	} else {
		f.Detail = fmt.Sprintf("the prompt was sent (state %s); collecting its answer", s.State)
	}
	r.finding(s.ID, f)
	if s.State == StateSubmitting {
		s, err = r.move(ctx, s.ID, StateSubmitted, "reattach: found the user turn", func(s *Session) {
			if s.Fingerprint != nil {
				s.Fingerprint.Confirmed, s.Fingerprint.ConfirmedBy = true, "reattach:found_turn"
			}
		})
		if err != nil {
			return nil, f, err
		}
	}
	ctx, cancel := r.deadline(ctx, s)
	defer cancel()
	s, err = r.collect(ctx, s, a, turn, nil)
	return s, f, err
}

func (r *Runner) finding(id string, f *Finding) {
	cp := *f
	r.publish(Event{Session: id, Kind: EventFinding, At: r.now().UTC(), Finding: &cp, Note: f.Detail})
}

// move persists a state change and then reports it.
func (r *Runner) move(ctx context.Context, id string, to State, note string, mutate func(*Session)) (*Session, error) {
	s, err := r.repo.Transition(ctx, id, to, note, mutate)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", to, err)
	}
	r.publish(Event{Session: id, Kind: EventState, At: s.Updated, State: to, Note: note})
	return s, nil
}

func (r *Runner) deadline(ctx context.Context, s *Session) (context.Context, context.CancelFunc) {
	if s.Deadline.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, s.Deadline)
}

// stop journals a failure. A run whose prompt was sent (or was being
// sent) stays in its state when the failure is only the end of ctx, or the
// loss of its tab or browser (BrowserDisconnected, TargetCrashed,
// TargetNotFound): the site goes on answering, and Reattach collects the
// answer; otherwise it becomes failed, or cancelled when ctx was cancelled.
// A lost browser before the send fails the run, saying that nothing was
// sent.
func (r *Runner) stop(ctx context.Context, s *Session, cause error) (*Session, error) {
	env := errs.From(cause)
	wctx := context.WithoutCancel(ctx)
	ctxEnded := ctx.Err() != nil && (env.Code == errs.Cancelled || env.Code == errs.Timeout)
	lost := !ctxEnded && record.TabEnded(env.Code)
	pageOnly := lost && s.ConversationURL == "" && (s.State.Sent() || s.State == StateSubmitting) && siteOf(ctx).PageOnlyChats
	switch {
	case pageOnly:
		// Nothing outside the page held the chat: the run is over.
		env = lostWithPage(env, siteOf(ctx), s)
	case lost:
		env = lostHint(env, s)
	}
	if (ctxEnded || lost) && !pageOnly && (s.State.Sent() || s.State == StateSubmitting) {
		out, err := r.repo.Update(wctx, s.ID, "", func(x *Session) error { x.Error = env; return nil })
		if err != nil {
			return s, errors.Join(cause, err)
		}
		if lost {
			return out, env
		}
		return out, env.WithHint("the prompt was sent: run `ferry reattach --session %s` to collect the answer", s.ID)
	}
	to := StateFailed
	if env.Code == errs.Cancelled {
		to = StateCancelled
	}
	out, err := r.move(wctx, s.ID, to, string(env.Code)+": "+env.Message, func(x *Session) { x.Error = env })
	if err != nil {
		return s, errors.Join(cause, err)
	}
	return out, env
}

// drive runs s from resolved: preflight, compose, submit, then collect.
func (r *Runner) drive(ctx context.Context, s *Session, a provider.Adapter, _ TurnFinder) (*Session, error) {
	ctx, cancel := r.deadline(ctx, s)
	defer cancel()
	clk := &runClock{start: r.now()}
	if s.TargetID != "" && a.TargetID() != s.TargetID {
		return r.stop(ctx, s, errs.New(errs.Internal, "the adapter controls tab %s, not the session's tab %s", a.TargetID(), s.TargetID).
			WithEvidence("requested_tab_id", s.TargetID).WithEvidence("controlled_tab_id", a.TargetID()))
	}
	// The capability check fails closed before anything is typed.
	var features []site.Feature
	if s.CodeMode {
		features = append(features, site.FeatureCodeArtifacts)
	}
	if len(s.Attachments) > 0 {
		features = append(features, site.FeatureFileUpload)
	}
	m, err := provider.Preflight(a, s.ModelRequested, features...)
	if err != nil {
		return r.stop(ctx, s, err)
	}
	effort, err := provider.PreflightEffort(a, s.EffortRequested)
	if err != nil {
		return r.stop(ctx, s, err)
	}
	tool, err := provider.PreflightTool(a, s.ToolRequested)
	if err != nil {
		return r.stop(ctx, s, err)
	}
	if err := provider.CanAttach(a, len(s.Attachments)); err != nil {
		return r.stop(ctx, s, err)
	}
	if err := a.Ready(ctx); err != nil {
		return r.stop(ctx, s, lostTab(ctx, a, err))
	}
	clk.ready = r.now()
	if s, err = r.move(ctx, s.ID, StatePreflighted, "ready, logged in, no interstitial", func(x *Session) {
		x.TargetID = a.TargetID()
		if x.Routing == nil {
			x.Routing = &provider.Routing{}
		}
		x.Routing.ControlledTabID = a.TargetID()
		x.Routing.Mismatch = x.Routing.RequestedTabID != "" && x.Routing.RequestedTabID != x.Routing.ControlledTabID
		x.Receipts = append(x.Receipts, Receipt{Layer: "routing", At: r.now().UTC(), Data: map[string]string{
			"requested_tab_id": x.Routing.RequestedTabID, "controlled_tab_id": x.Routing.ControlledTabID,
			"tab_was_created": fmt.Sprint(x.Routing.TabWasCreated), "mismatch": fmt.Sprint(x.Routing.Mismatch)}})
	}); err != nil {
		return s, err
	}
	// Preflight refused a named model or effort the adapter cannot select.
	named := s.ModelRequested != "" && !strings.EqualFold(s.ModelRequested, site.DefaultModel)
	if m.Effort != "" {
		// An alias that stands for a tier (ChatGPT's "pro").
		if effort.Name != "" && effort.Name != m.Effort {
			return r.stop(ctx, s, errs.New(errs.BadInput, "the model %q is the %s effort, and the run also asks for the effort %q", m.Alias, m.Effort, effort.Name).
				WithHint("ask for a model and an effort (--model gpt-5.6 --effort %s), or one of them", effort.Name))
		}
		if effort, err = a.Site().Effort(m.Effort); err != nil {
			return r.stop(ctx, s, err)
		}
		named = false
	}
	if es, ok := a.(provider.EffortSelector); ok && effort.Name != "" {
		if !named {
			m = site.Model{}
		}
		label, err := es.SelectChoice(ctx, m, effort)
		if err != nil {
			return r.stop(ctx, s, lostTab(ctx, a, err))
		}
		s.Model.Selected = label
	} else if ms, ok := a.(provider.ModelSelector); ok && named {
		label, err := ms.SelectModel(ctx, m)
		if err != nil {
			return r.stop(ctx, s, lostTab(ctx, a, err))
		}
		s.Model.Selected = label
	}
	if s, err = r.attach(ctx, s, a); err != nil {
		return r.stop(ctx, s, lostTab(ctx, a, err))
	}
	if err := a.Compose(ctx, s.Prompt); err != nil {
		return r.stop(ctx, s, lostTab(ctx, a, err))
	}
	// A tool is switched on after the prompt is typed (the composer's tools
	// act on what it holds) and proven by its pill with the prompt unchanged;
	// a tool not proven sends nothing (a Deep Research prompt sent as a plain
	// one is what it must never be).
	var toolProof *record.ToolProof
	if tool.Name != "" {
		label, err := a.(provider.ToolChooser).ChooseTool(ctx, tool, s.Prompt)
		if err != nil {
			return r.stop(ctx, s, lostTab(ctx, a, err))
		}
		toolProof = &record.ToolProof{Requested: tool.Name, Selected: label, Request: tool.Request}
	}
	clk.composed = r.now()
	if s, err = r.move(ctx, s.ID, StateComposed, "prompt typed and read back", func(x *Session) {
		x.Model.Selected = s.Model.Selected
		x.Tool = toolProof
	}); err != nil {
		return s, err
	}
	// The fingerprint is on disk before the click: a crash from here on is
	// reattached by looking for the turn, never by sending again.
	at := r.now().UTC()
	fp := &Fingerprint{Hash: FingerprintHash(s.Site, s.ConversationURL, s.Prompt, at), At: at, Conversation: s.ConversationURL}
	carryRetry(s.Fingerprint, fp)
	if s, err = r.move(ctx, s.ID, StateSubmitting, "about to click send", func(x *Session) { x.Fingerprint = fp }); err != nil {
		return s, err
	}
	turn, err := a.Submit(ctx, s.Prompt)
	if err != nil {
		err = lostTab(ctx, a, err)
		if errs.Has(err, errs.SendUnconfirmed) {
			// Unknown whether it left: stay at submitting for reattach.
			out, uerr := r.repo.Update(context.WithoutCancel(ctx), s.ID, "", func(x *Session) error { x.Error = errs.From(err); return nil })
			if uerr != nil {
				return s, errors.Join(err, uerr)
			}
			return out, errs.From(err).WithHint("run `ferry reattach --session %s`: it looks for the prompt before anything is sent again", s.ID)
		}
		// A rate limit or a conversation too long gets its one retry.
		return r.sendFailed(ctx, s, a, err, clk)
	}
	clk.submitted = r.now()
	if s, err = r.move(ctx, s.ID, StateSubmitted, "user turn confirmed", func(x *Session) {
		x.Fingerprint.Confirmed, x.Fingerprint.ConfirmedBy = true, "submit"
	}); err != nil {
		turn.Close()
		return s, err
	}
	return r.collect(ctx, s, a, turn, clk)
}

// runClock holds the moments of one driven run, for its timings; a
// reattached run has none (its phases happened in another process).
type runClock struct {
	start, ready, composed, submitted, waited time.Time
	firstText                                 time.Duration
}

func (c *runClock) timings(extracted time.Time) *provider.Timings {
	ms := func(a, b time.Time) int64 { return b.Sub(a).Milliseconds() }
	return &provider.Timings{ReadyMS: ms(c.start, c.ready), ComposeMS: ms(c.ready, c.composed), SubmitMS: ms(c.composed, c.submitted),
		WaitMS: ms(c.submitted, c.waited), ExtractMS: ms(c.waited, extracted), TotalMS: ms(c.start, extracted), FirstTextM: c.firstText.Milliseconds()}
}

// collect waits for the answer of a sent turn and extracts it. clk is nil
// for a reattached run.
func (r *Runner) collect(ctx context.Context, s *Session, a provider.Adapter, turn *provider.Turn, clk *runClock) (*Session, error) {
	defer turn.Close()
	var err error
	if s.State == StateSubmitted {
		if s, err = r.move(ctx, s.ID, StateStreaming, "waiting for the answer", nil); err != nil {
			return s, err
		}
	}
	partials := 0
	if s.State == StateStreaming {
		id := s.ID
		// The conversation's address is journaled as soon as the site gives
		// it one (on the send, or with the first frames of the answer), so
		// that a run whose tab is lost mid-stream can be reopened by the
		// doctor; the answer is not held up when it cannot be read.
		journaled := r.journalConversation(ctx, s, a)
		lastTry := r.now()
		sofar := s.Answer // a collected cancelled run starts from its partial answer
		err := a.Wait(ctx, turn, func(p provider.Partial) {
			partials++
			sofar = p.Text
			if partials == 1 && clk != nil {
				clk.firstText = r.now().Sub(clk.submitted)
			}
			if !journaled && (partials == 1 || r.now().Sub(lastTry) >= time.Second) {
				lastTry = r.now()
				journaled = r.journalConversation(ctx, s, a)
			}
			cp := p
			r.publish(Event{Session: id, Kind: EventPartial, At: r.now().UTC(), Partial: &cp})
		})
		if err != nil {
			if cancelledByUser(ctx) {
				return r.cancelStreaming(ctx, s, a, sofar)
			}
			// A rate limit or a conversation too long gets its one retry,
			// with its own capture: this turn's stops first.
			err = lostTab(ctx, a, err)
			turn.Close()
			return r.sendFailed(ctx, s, a, err, clk)
		}
		tr := turn.Transport(partials)
		conv := ""
		if l, ok := a.(ConversationLocator); ok {
			// Best effort: the answer is complete whether or not the
			// address can be read.
			if u, err := l.ConversationURL(ctx); err == nil {
				conv = site.Redact(u)
			}
		}
		if s, err = r.move(ctx, s.ID, StateCompleted, "the turn is complete ("+tr.CompleteReason+")", func(x *Session) {
			x.Transport = &tr
			if conv != "" {
				x.ConversationURL = conv
				if x.Routing != nil {
					x.Routing.URL = conv
				}
			}
			data := map[string]string{"source": tr.Source, "decoder": tr.Decoder, "complete_reason": tr.CompleteReason,
				"stream_bytes": fmt.Sprint(tr.StreamBytes), "partials": fmt.Sprint(tr.Partials)}
			if tr.HandedOff {
				data["handed_off"], data["socket_items"] = "true", fmt.Sprint(tr.SocketItems)
			}
			x.Receipts = append(x.Receipts, Receipt{Layer: "transport", At: r.now().UTC(), Data: data})
		}); err != nil {
			return s, err
		}
	} else if s.State == StateCompleted {
		// Extract reads what Wait left on the turn: wait again (the turn is
		// complete, so this returns as soon as the page proves it).
		if err := a.Wait(ctx, turn, nil); err != nil {
			return r.stop(ctx, s, lostTab(ctx, a, err))
		}
	}
	if clk != nil {
		clk.waited = r.now()
	}
	ans, err := a.Extract(ctx, turn)
	if err != nil {
		return r.stop(ctx, s, lostTab(ctx, a, err))
	}
	model, err := a.Site().Model(s.ModelRequested)
	if err != nil {
		return r.stop(ctx, s, err)
	}
	proof := ans.Model
	proof.Requested, proof.Selected = s.ModelRequested, s.Model.Selected
	if proof.Requested == "" {
		proof.Requested = site.DefaultModel
	}
	if s.EffortRequested != "" {
		proof.Effort = s.EffortRequested
	}
	verified, mismatch := provider.ProveModel(model, proof)
	if mismatch == nil && s.EffortRequested != "" {
		e, _ := a.Site().Effort(s.EffortRequested)
		var ok bool
		ok, mismatch = provider.ProveEffort(e, proof)
		verified = verified && ok
	}
	proof.Verified = verified
	toolProof, toolWarning := proveTool(s, a, turn)
	if mismatch == nil && toolProof != nil && !toolProof.Verified && toolWarning == "" {
		mismatch = errs.New(errs.ToolUnavailable, "the %s send did not carry the %s tool (its request names no %q), though its pill showed; the answer is kept in the run, but it was not made with the tool",
			a.Site().Name, toolProof.Selected, toolProof.Request).
			WithEvidence("tool", toolProof.Requested).WithEvidence("sent", "true").
			WithHint("send it again with --tool, or switch the tool on in the tab by hand")
	}
	content := provider.ContentOf(ans.Text, ans.Source)
	if s, err = r.move(ctx, s.ID, StateExtracted, "answer extracted from "+ans.Source, func(x *Session) {
		x.Answer, x.CodeBlocks, x.AnswerSource = ans.Text, ans.CodeBlocks, ans.Source
		x.Model = proof
		x.Content = &content
		if ans.ConversationID != "" {
			x.ConversationID = ans.ConversationID
		}
		if ans.MessageID != "" {
			x.MessageID = ans.MessageID
		}
		if clk != nil {
			x.Timings = clk.timings(r.now())
		}
		x.Warnings = append(x.Warnings, ans.Warnings...)
		if toolProof != nil {
			x.Tool = toolProof
		}
		if toolWarning != "" {
			x.Warnings = append(x.Warnings, toolWarning)
		}
		x.Receipts = append(x.Receipts, Receipt{Layer: "content", At: r.now().UTC(), Data: map[string]string{
			"sha256": content.SHA256, "bytes": fmt.Sprint(content.Bytes), "source": content.Source}})
	}); err != nil {
		return s, err
	}
	if mismatch != nil {
		// The answer stays in the record, beside the envelope that says why
		// it does not count.
		return r.stop(ctx, s, mismatch)
	}
	return r.finish(ctx, s, a)
}

// proveTool checks the tool a run switched on against the request its send
// went out with: verified when the request names the tool; a warning when
// the request was not seen (the pill, shown with the prompt unchanged, is
// then the only proof). Nil for a run without a tool.
func proveTool(s *Session, a provider.Adapter, turn *provider.Turn) (*record.ToolProof, string) {
	if s.Tool == nil {
		return nil, ""
	}
	p := *s.Tool
	if p.Request == "" {
		return &p, fmt.Sprintf("%s names no request value for the tool %s: it is proven by its pill alone", a.Site().Name, p.Requested)
	}
	seen, named := turn.RequestNames(p.Request)
	if !seen {
		return &p, fmt.Sprintf("the %s send's request was not seen: the tool %s is proven by its pill alone", a.Site().Name, p.Requested)
	}
	p.Verified = named
	return &p, ""
}

// journalConversation records in the session the address of the
// conversation a's tab shows, when a can tell it and it is not the one
// already recorded, and reports whether the session now holds the tab's
// address. The record is written before the run goes on.
func (r *Runner) journalConversation(ctx context.Context, s *Session, a provider.Adapter) bool {
	l, ok := a.(ConversationLocator)
	if !ok {
		return true // nothing to learn: stop asking
	}
	u, err := l.ConversationURL(ctx)
	if err != nil || u == "" {
		return false
	}
	conv := site.Redact(u)
	if conv == s.ConversationURL {
		return true
	}
	if _, err := r.repo.Update(context.WithoutCancel(ctx), s.ID, "", func(x *Session) error {
		x.ConversationURL = conv
		if x.Routing != nil {
			x.Routing.URL = conv
		}
		return nil
	}); err != nil {
		return false
	}
	s.ConversationURL = conv
	return true
}

// finish takes an extracted run to done, through the Runner's Deliverable
// when it has one. Without it a code-mode run is finished with a warning
// and its artifacts are fetched by the code-mode path.
func (r *Runner) finish(ctx context.Context, s *Session, a provider.Adapter) (*Session, error) {
	if r.deliver != nil && s.State == StateExtracted {
		return r.deliverAndFinish(ctx, s, a)
	}
	note := "done"
	return r.move(context.WithoutCancel(ctx), s.ID, StateDone, note, func(x *Session) {
		if x.CodeMode && x.State == StateExtracted {
			x.Warnings = append(x.Warnings, "artifacts were not retrieved by the run: fetch them with the code-mode commands")
		}
	})
}

// FingerprintHash is the submission fingerprint: the sha256, in hex, of the
// site, the conversation, the prompt and the send time.
func FingerprintHash(site, conversation, prompt string, at time.Time) string {
	h := sha256.New()
	for _, part := range []string{site, conversation, prompt, at.UTC().Format(time.RFC3339Nano)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
