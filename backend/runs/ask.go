package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	_ "github.com/ferrydesk/ferry/backend/provider/all" // every adapter
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// AskRequest is one prompt to run through the journal. Site or TargetID
// (or both) must be given; Prompt must not be blank.
type AskRequest struct {
	// Site is a site id of the registry ("chatgpt", ...). With TargetID it
	// must name the site the tab shows.
	Site string
	// Model is a model alias of the site; "" or "default" keeps whatever
	// the site has selected.
	Model string
	// Effort is a reasoning-effort tier of the site (site.Site.Efforts); ""
	// keeps whatever the site has selected.
	Effort string
	// Tool is a tool of the site's composer to switch on for the prompt
	// (site.Site.Tools); "" asks with none.
	Tool string
	// ConfirmPlan starts a deep research's plan at once (its "Start")
	// instead of waiting for the plan's own countdown.
	ConfirmPlan bool
	// Prompt is sent as is (at most one send, journaled).
	Prompt string
	// Template names a built-in or stored template (see Templates) whose
	// rendering with Vars is the prompt; Prompt must then be empty. The
	// session records the template's name.
	Template string
	Vars     map[string]string
	// TargetID pins the run to exactly that tab (never another). Without
	// it the run uses the one open tab of Site, or opens one; several open
	// tabs fail with TabAmbiguous listing them.
	TargetID string
	// NewChat runs the prompt in a fresh chat: a new tab on the site's
	// new-chat address, whatever tabs of the site are open (for an agent,
	// one of its own free tabs navigated there: tabs.Leases.NewChat). It
	// needs Site and excludes TargetID.
	NewChat bool
	// Temporary asks in the site's temporary chat (site.Site.TemporaryChat),
	// which the site keeps no history of: a new chat, so it excludes
	// TargetID and Continue; the run's record is then the only one.
	Temporary bool
	// ArchiveAfter archives the conversation on the site once the answer is
	// safe in the run's record (an adapter that is an Archiver); a failed
	// archive is a warning, never a failed run.
	ArchiveAfter bool
	// Project (an address or a name) and GPT (an address) open the run's
	// new chat in that project or custom GPT of the site (an adapter that
	// is a Placer); either excludes TargetID, Continue and Temporary.
	Project, GPT string
	// Continue is the address of a conversation of Site to go on with (a
	// follow-up): the run takes a tab that shows it, else one navigated to
	// it (tabs.Leases.Continue); TargetID is then only the tab preferred.
	// It needs Site and excludes NewChat.
	Continue string
	// Tab is what the choice of the run's tab needs to know of the run
	// beyond the fields above: whom it is for, the run on screen, whom to
	// tell that it waits (see tabs.Run; the zero value is a run of the
	// owner). Ask sets the life of its leases itself.
	Tab tabs.Run
	// Parent is the run this one follows up (with Continue): the new run
	// records it, and the thread of runs it belongs to.
	Parent *job.Session
	// Files are absolute paths of files to attach (checked against the
	// site's limits before the browser is touched; each proven in the
	// composer before the prompt is typed); with InlineFiles they are
	// pasted into the prompt instead.
	Files       []string
	InlineFiles bool

	// Browser is a connected browser to use (the owner's long-lived one);
	// Ask does not close it. When nil, Ask attaches to BrowserURL or,
	// without it, launches Ferry's own browser on the data directory's
	// profile (Headless, Chromium and BrowserArgs apply), and closes (or
	// detaches from) it before returning.
	Browser     *browser.Browser
	BrowserURL  string
	Headless    bool
	Chromium    string
	BrowserArgs []string

	// Timeout bounds the whole run (default 20 minutes). It becomes the
	// session's deadline: a run still collecting then stays collectable by
	// Reattach.
	Timeout time.Duration
	// RateLimitCooldown is the wait after a "Too many requests" refusal
	// before the one retry on the same tab (default: the settings'
	// run.rateLimitCooldown, else 300 s).
	RateLimitCooldown time.Duration
	// Origin says who asked (default job.OriginCLI).
	Origin job.Origin
	// OnEvent receives the run's events in order (state changes after they
	// are persisted, partial text, findings), on the run's goroutine: it
	// must return quickly and must not call back into the Pipeline.
	OnEvent func(job.Event)
}

// DefaultAskTimeout is the deadline of a run whose request gives none;
// researchTimeout that of a deep research (the site's take 5–30 minutes).
const (
	DefaultAskTimeout = service.DefaultAskTimeout
	researchTimeout   = service.ResearchTimeout
)

// planConfirmer is an adapter whose deep research can start its plan at
// once (chatgpt.Adapter).
type planConfirmer interface{ ConfirmResearchPlan(on bool) }

// toolResumer is an adapter that follows a tool's work past the send's
// answer (chatgpt.Adapter's deep research), told on reattach the tool the
// run's send named.
type toolResumer interface{ ResumeTool(request string) }

// Ask runs one prompt through the crash-safe pipeline and returns the
// session record it wrote: it resolves the browser, the tab and the site's
// adapter, creates the session (state resolved, with the routing request),
// then drives it with a job.Runner, which persists every state before the
// side effect it guards (the submission fingerprint before the click on
// send) and records the answer, code blocks, model proof, transport,
// content receipt, conversation URL, timings and warnings.
//
// The returned session is nil only when the run failed before its record
// could be created (bad input, no browser, an ambiguous or foreign tab, an
// unknown site); otherwise it is the final record, also on error, and its
// ID lets the caller show, poll or reattach the run. Errors are envelopes:
// BadInput (no site and no tab, a new chat without a site or with a tab,
// blank prompt, negative timeout),
// UnknownSite, the browser's envelopes, TabAmbiguous, NavigatedAway (a
// tab not on a known site), the capability, readiness, interstitial,
// composer, send and answer envelopes of the run (journaled as failed),
// ModelMismatch (the answer is kept in the record), Timeout when the
// deadline passed (a run already sent stays collectable: the envelope's
// hint names `ferry reattach`), Cancelled when ctx was cancelled. Every
// envelope of a created run carries the evidence "session".
func (p *Pipeline) Ask(ctx context.Context, req AskRequest) (*job.Session, error) {
	if req.Site == "" && req.TargetID == "" {
		// The runner resolves every job's target first (JobRequest.Validate
		// holds the user's rules); a run without one fails before its record.
		return nil, errs.New(errs.BadInput, "a run needs a site or a tab").WithHint("give the site id, or the TargetID of the tab to use")
	}
	if req.Continue != "" && (req.Site == "" || req.NewChat) {
		return nil, errs.New(errs.BadInput, "a follow-up needs the conversation's site and no new chat").WithHint("give the site id of the conversation")
	}
	text, err := p.taskOf(ctx, req.Prompt, req.Template, req.Vars)
	if err != nil {
		return nil, err
	}
	req.Prompt = text
	if strings.TrimSpace(req.Prompt) == "" {
		return nil, errs.New(errs.BadInput, "the prompt is empty")
	}
	if req.Timeout < 0 {
		return nil, errs.New(errs.BadInput, "the timeout must be positive, got %s", req.Timeout)
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = DefaultAskTimeout
		if req.Tool == service.ResearchTool {
			timeout = researchTimeout
		}
	}
	if req.Origin == "" {
		req.Origin = job.OriginCLI
	}
	reg, err := p.Sites()
	if err != nil {
		return nil, err
	}
	if req.Temporary {
		if reg, err = temporaryChat(reg, &req); err != nil {
			return nil, err
		}
	}
	place, err := placeAsked(&req)
	if err != nil {
		return nil, err
	}
	var files []attach.File
	checkedFiles := false
	if req.Site != "" {
		st, err := reg.Get(req.Site)
		if err != nil {
			return nil, err
		}
		if req.Prompt, files, err = WithFiles(reg, st, req.Model, req.Prompt, req.Files, req.InlineFiles); err != nil {
			return nil, err
		}
		checkedFiles = true
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()

	b := req.Browser
	if b == nil {
		if b, err = p.OpenBrowser(ctx, req); err != nil {
			return nil, err
		}
		defer func() {
			cctx, stop := context.WithTimeout(context.Background(), 15*time.Second)
			defer stop()
			_ = b.Close(cctx)
		}()
	}
	var (
		page    *browser.Page
		st      site.Site
		created bool
	)
	// The run's tab stays leased until Ask is done with it, past the end
	// of ctx: a cancelled run stops the site's answer first (see
	// tabs.Leases.WatchBusy for a site that will not stop).
	life, endLife := context.WithCancel(context.WithoutCancel(ctx))
	handedOff := false
	defer func() {
		if !handedOff {
			endLife()
		}
	}()
	tr := req.Tab
	tr.Life = life
	requested := req.TargetID
	switch {
	case req.NewChat:
		page, st, created, err = p.d.Leases.NewChat(ctx, tr, b, reg, req.Site)
		if err == nil && req.Temporary {
			err = provedTemporary(ctx, page, st)
		}
	case req.Continue != "":
		// The request named a conversation; its tab was only a preference.
		page, st, created, err = p.d.Leases.Continue(ctx, tr, b, reg, req.Site, req.Continue, req.TargetID)
		requested = ""
	default:
		page, st, created, err = p.d.Leases.Resolve(ctx, tr, b, reg, req.Site, req.TargetID)
	}
	if err != nil {
		return nil, err
	}
	var finished bool
	var wentOn provider.Adapter // the adapter of a tab whose site did not stop at Cancel
	defer func() {
		if wentOn != nil {
			handedOff = true
			go p.d.Leases.WatchBusy(b, page, wentOn, endLife, DefaultAskTimeout)
			return
		}
		cctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		// A tab opened because the site's tabs were busy with other runs
		// is closed once its run is done: left open, it would make the
		// site's next run ambiguous (TabAmbiguous).
		if finished && p.d.Leases.Spare(b, page.ID()) {
			_ = page.Close(cctx)
			return
		}
		_ = page.Detach(cctx)
	}()
	if !checkedFiles {
		// The site is the tab's: the files are checked before anything
		// is typed or attached.
		if req.Prompt, files, err = WithFiles(reg, st, req.Model, req.Prompt, req.Files, req.InlineFiles); err != nil {
			return nil, err
		}
	}
	a, err := provider.New(provider.Env{Page: page, Site: st, Sites: reg})
	if err != nil {
		return nil, err
	}
	if _, ok := a.(Archiver); req.ArchiveAfter && !ok {
		return nil, errs.New(errs.CapabilityMissing, "%s has no archive Ferry knows of; nothing was sent", st.Name).WithHint("ask without --archive-after")
	}
	var placed *record.Place
	if place.ref != "" {
		if placed, err = openPlace(ctx, page, a, place); err != nil {
			return nil, err
		}
	}
	if pc, ok := a.(planConfirmer); ok {
		pc.ConfirmResearchPlan(req.ConfirmPlan)
	}
	repo, err := p.d.History(ctx)
	if err != nil {
		return nil, err
	}
	cooldown := req.RateLimitCooldown
	if cooldown <= 0 {
		cooldown = p.d.Settings().RateLimitCooldownDuration()
	}
	// The conversation-too-long policy opens at most one fresh tab when
	// the adapter cannot start a new chat in its own; Ask detaches from it.
	var fresh *browser.Page
	defer func() {
		if fresh != nil {
			cctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
			defer stop()
			_ = fresh.Detach(cctx)
		}
	}()
	freshTab := func(ctx context.Context, siteID string) (provider.Adapter, error) {
		tab, fs, err := p.d.Leases.OpenSite(ctx, tr, b, reg, siteID)
		if err != nil {
			return nil, err
		}
		fresh = tab
		return provider.New(provider.Env{Page: tab, Site: fs, Sites: reg})
	}
	ropts := []job.RunnerOption{job.WithRateLimitCooldown(cooldown), job.WithFreshTab(freshTab),
		job.WithDeliverable(p.askDelivery(req.ArchiveAfter))}
	if p.d.Settings().Run.NoFailureScreenshot {
		ropts = append(ropts, job.WithoutFailureScreenshots())
	}
	r := job.NewRunner(repo, ropts...)
	if req.OnEvent != nil {
		defer r.Subscribe(req.OnEvent)()
	}
	spec := job.Spec{Site: st.ID, Model: req.Model, Effort: req.Effort, Tool: req.Tool, TargetID: page.ID(), Prompt: req.Prompt, Template: req.Template,
		Deadline: deadline, Origin: req.Origin, RequestedTab: requested, TabWasCreated: created, Attachments: files, Temporary: req.Temporary, ArchiveAfter: req.ArchiveAfter, ConfirmPlan: req.ConfirmPlan, Place: placed}
	if parent := req.Parent; parent != nil {
		spec.Parent, spec.Thread = parent.ID, parent.Thread
		if spec.Thread == "" {
			spec.Thread = parent.ID
		}
	}
	s, err := r.Create(ctx, spec)
	if err != nil {
		return nil, err
	}
	out, err := r.Run(ctx, s.ID, a)
	if out == nil {
		out = s
	}
	// A temporary chat's browser state goes once its answer is safe here
	// (a run that did not finish keeps it, for a reattach).
	if f, ok := a.(TemporaryForgetter); ok && req.Temporary && out.ConversationID != "" && err == nil && out.State == job.StateDone {
		fctx, stop := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = f.ForgetTemporary(fctx, out.ConversationID)
		stop()
	}
	p.d.Ledger.LearnFromRun(out, err)
	finished = err == nil && out.State == job.StateDone
	if job.SiteWentOn(err) {
		wentOn = a
	}
	if err == nil {
		return out, nil
	}
	env := errs.From(err)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && env.Code != errs.Timeout {
		// The deadline cut a browser call short: say so, not what the cut
		// call reported.
		hint := env.RetryHint
		env = errs.Wrap(err, errs.Timeout, "no complete answer within %s", timeout)
		if hint != "" && (out.State.Sent() || out.State == job.StateSubmitting) {
			env = env.WithHint("%s", hint)
		}
	}
	return out, env.WithEvidence("session", out.ID)
}

// Sites returns the built-in site registry with the overrides of the
// settings in force. Errors: ConfigInvalid for an override that does not
// parse or merge.
func (p *Pipeline) Sites() (*site.Registry, error) { return SiteRegistry(p.d.Settings()) }

// SiteRegistry is the built-in site registry with the site overrides of s.
// Errors: ConfigInvalid for an override that does not parse or merge.
func SiteRegistry(s config.Settings) (*site.Registry, error) {
	reg := site.Builtin()
	if len(s.Sites) == 0 {
		return reg, nil
	}
	raw, err := json.Marshal(s.Sites)
	if err != nil {
		return nil, fmt.Errorf("encode site overrides: %w", err)
	}
	overrides, err := site.ParseOverrides(raw)
	if err != nil {
		return nil, err
	}
	return reg.Merge(overrides...)
}

// OpenBrowser attaches to req.BrowserURL or launches Ferry's own browser on
// the data directory's profile (Headless, Chromium and BrowserArgs apply);
// the caller closes it. Errors: errs.BrowserDisconnected for Ferry's own
// profile when its browser does not run; the launch and attach envelopes.
func (p *Pipeline) OpenBrowser(ctx context.Context, req AskRequest) (*browser.Browser, error) {
	if req.BrowserURL != "" {
		if err := p.checkOwnProfile(req.BrowserURL); err != nil {
			return nil, err
		}
		return browser.Attach(ctx, req.BrowserURL)
	}
	var opts []launch.Option
	if req.Chromium != "" {
		opts = append(opts, launch.WithBinary(req.Chromium))
	}
	if req.Headless {
		opts = append(opts, launch.Headless())
	}
	if len(req.BrowserArgs) > 0 {
		opts = append(opts, launch.WithArgs(req.BrowserArgs...))
	}
	return browser.Launch(ctx, p.d.Paths.ProfileDir(), opts...)
}

// checkOwnProfile refuses to attach to Ferry's own browser (url is the data
// directory's profile) while it does not run. Errors:
// errs.BrowserDisconnected with how to start it.
func (p *Pipeline) checkOwnProfile(url string) error {
	if url != p.d.Paths.ProfileDir() {
		return nil
	}
	if _, err := os.Stat(filepath.Join(url, "DevToolsActivePort")); err != nil {
		return errs.New(errs.BrowserDisconnected, "Ferry's browser is not running (its profile %s has no DevToolsActivePort)", url).
			WithHint("start the Ferry app (it runs the browser), pass --browser-url for a browser started with --remote-debugging-port, or use --browser launch")
	}
	return nil
}
