package codemode

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// Run composes the code-mode prompt (the task or the rendered template,
// the contract, the delivery, the optional goal lock, research directive
// and source provenance), sends each step once through the crash-safe
// pipeline (a session per step, journaled like Ask, recording template and
// contract), and once a zip step's answer is extracted finds this turn's
// /mnt/data zips, fetches them inside the browser, verifies and saves them
// atomically into OutDir (the session passes artifacts_retrieved and
// artifacts_verified and records every zip with its verdict), then writes
// the receipt beside the outputs and records it in the last session.
//
// The outcome is non-nil whenever a receipt was written (its Receipt also
// on error); errors before the first step (bad input, the browser, the tab)
// return no receipt. Errors are envelopes: BadInput (no site, tab or
// conversation; a bad conversation id; a negative timeout; a repository
// without sources; a prompt and a template together; a missing template
// variable), CapabilityMissing for a site other than chatgpt,
// AuthorizationRequired for plan/all without ArchitectureAuthorized,
// TemplateNotFound, the source provenance's envelopes, the browser's and
// the run's envelopes (as Ask), DeliverableMissing / ContractViolation for a
// step whose deliverable is missing, CodeArtifactMissing when no zip came
// back (and AllowInline is off), the artifact envelopes (ArtifactExpired,
// ArtifactForbidden, ArtifactCorrupt, ArtifactUnsafe, ...) when no zip was
// saved as good, Timeout when the deadline passed.
func Run(ctx context.Context, h Host, req Request) (*Outcome, error) {
	steps, preq, err := compose(ctx, h, &req)
	if err != nil {
		return nil, err
	}
	settings := h.Settings()
	out, err := OutDir(req.OutDir, settings, h.ArtifactsDir())
	if err != nil {
		return nil, err
	}
	reg, err := h.Sites()
	if err != nil {
		return nil, err
	}
	repo, err := h.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()

	r := &codeRun{req: req, task: preq.Task, out: out, repo: repo, limits: settings.Artifacts, cooldown: settings.RateLimitCooldownDuration(), deadline: deadline}
	r.receipt = newReceipt(preq.Contract, req.MultiZip, req.AllowInline)
	if req.RepoRoot != "" {
		sp, err := prompt.CheckSources(ctx, req.RepoRoot, req.SourcePaths)
		if err != nil {
			return nil, err
		}
		preq.Source = sp
		p, err := prompt.WriteSourceProvenance(out, sp)
		if err != nil {
			return nil, err
		}
		r.receipt.SourceProvenance = p
		if steps, err = prompt.Compose(preq); err != nil {
			return nil, err
		}
	}

	b := req.Browser
	if b == nil {
		if b, err = h.OpenBrowser(ctx); err != nil {
			return nil, err
		}
		defer func() {
			cctx, stop := context.WithTimeout(context.Background(), 15*time.Second)
			defer stop()
			_ = b.Close(cctx)
		}()
	}
	var (
		page *browser.Page
		st   site.Site
	)
	switch {
	case req.Conversation != "":
		page, st, r.created, err = ConversationTab(ctx, h, b, reg, req.Conversation, req.TargetID, false)
	case req.NewChat:
		page, st, r.created, err = h.NewChatTab(ctx, b, reg, SiteID)
	default:
		page, st, r.created, err = h.ResolveTab(ctx, b, reg, SiteID, req.TargetID)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		cctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = page.Detach(cctx)
	}()
	a, _, err := sourceOf(page, st, reg)
	if err != nil {
		return nil, err
	}
	r.a = a

	runErr := r.drive(ctx, steps)
	if runErr != nil && ctx.Err() != nil && errs.CodeOf(runErr) != errs.Timeout {
		runErr = errs.Wrap(runErr, errs.Timeout, "no verified result within --timeout %s", timeout)
	}
	return r.finish(ctx, runErr)
}

// compose checks the request and composes its steps once, so that bad
// input fails before the browser is touched (Run composes again with the
// source provenance).
func compose(ctx context.Context, h Host, req *Request) ([]prompt.Step, prompt.Request, error) {
	var none prompt.Request
	if req.Site == "" && req.TargetID == "" && req.Conversation == "" {
		return nil, none, errs.New(errs.BadInput, "a code run needs the chatgpt site, a tab or a conversation").
			WithHint("e.g. `ferry code --site chatgpt \"a CLI that greets\"`")
	}
	if req.Conversation != "" {
		if err := CheckConvID(req.Conversation); err != nil {
			return nil, none, err
		}
	}
	if req.NewChat && (req.TargetID != "" || req.Conversation != "") {
		return nil, none, errs.New(errs.BadInput, "a new chat needs no tab and no conversation: it opens its own tab")
	}
	if req.Site != "" && req.Site != SiteID {
		return nil, none, errs.New(errs.CapabilityMissing, "code mode needs ChatGPT's sandbox; site %q has none", req.Site).
			WithEvidence("site", req.Site).WithHint("use --site chatgpt")
	}
	if req.Timeout < 0 {
		return nil, none, errs.New(errs.BadInput, "--timeout must be positive, got %s", req.Timeout)
	}
	if req.Origin == "" {
		req.Origin = job.OriginCLI
	}
	task, err := h.Task(ctx, req.Prompt, req.Template, req.Vars)
	if err != nil {
		return nil, none, err
	}
	contract := req.Contract
	if contract == "" {
		contract = prompt.ContractCode
	}
	if contract, err = prompt.ParseContract(string(contract)); err != nil {
		return nil, none, err
	}
	goal := req.Goal
	if req.GoalLock && strings.TrimSpace(goal) == "" {
		goal = task
	}
	preq := prompt.Request{Task: task, Contract: contract, Authorized: req.ArchitectureAuthorized,
		Zip: true, MultiZip: req.MultiZip, Goal: goal, Research: req.Research}
	if (req.RepoRoot == "") != (len(req.SourcePaths) == 0) {
		return nil, none, errs.New(errs.BadInput, "--repo and --source go together").
			WithHint("pass --repo DIR and one --source PATH per file or directory")
	}
	steps, err := prompt.Compose(preq)
	if err != nil {
		return nil, none, err
	}
	return steps, preq, nil
}

// OutDir is dir, else the settings' artifacts.outputDir, else
// artifactsDir, absolute and created. Errors: BadInput naming --out for a
// directory that cannot be resolved or created.
func OutDir(dir string, s config.Settings, artifactsDir string) (string, error) {
	if dir == "" {
		dir = s.Artifacts.OutputDir
	}
	if dir == "" {
		dir = artifactsDir
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", errs.Wrap(err, errs.BadInput, "create the output directory %s: %v", abs, err).WithHint("pass --out with a writable directory")
	}
	return abs, nil
}

// Check checks req as Run does before it touches the browser (the
// target, the contract and its authorization, the task or the template and
// its variables, the sizes), with Run's envelopes; nothing is opened or
// written.
func Check(ctx context.Context, h Host, req Request) error {
	_, _, err := compose(ctx, h, &req)
	return err
}

// codeRun is one code run: its settings and what it found.
type codeRun struct {
	req      Request
	task     string // the user's own words, which each step's prompt wraps
	out      string
	repo     *job.Repo
	limits   config.ArtifactSettings
	cooldown time.Duration // the settings' rate-limit cooldown
	deadline time.Time
	a        provider.Adapter
	src      provider.ArtifactSource // the sandbox of the step being delivered
	created  bool
	receipt  *Receipt
	sessions []*job.Session
	// resume is set on reattach: zips this turn already saved and verified
	// are taken from disk instead of fetched again (see savedZips).
	resume bool
}

// drive sends the steps in order on the run's tab, each as its own
// journaled session, and checks each answer against its contract (the
// Runner's Deliverable). It stops at the first failure and at an assess
// ruling other than PASS_CURRENT_GATE (returning nil: the model answered,
// and said not to go on).
func (r *codeRun) drive(ctx context.Context, steps []prompt.Step) error {
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return errs.From(err)
		}
		outcome, err := r.step(ctx, step)
		if err != nil {
			return err
		}
		if step.Contract == prompt.ContractAssess && outcome != nil && outcome.Ruling != prompt.RulingPass {
			return nil
		}
	}
	return nil
}

// zipStep reports whether a step asks for sandbox zips.
func zipStep(c prompt.Contract) bool { return c == prompt.ContractCode || c == prompt.ContractNone }

// step runs one step as a session and returns its contract outcome.
func (r *codeRun) step(ctx context.Context, step prompt.Step) (*prompt.Outcome, error) {
	first := len(r.receipt.Steps) == 0
	requested := r.req.TargetID
	if !first {
		// Every later step must land on the tab of the first.
		requested = r.firstTab()
	}
	sr := StepReceipt{Contract: step.Contract, PromptSHA256: provider.ContentOf(step.Prompt, "").SHA256}
	var outcome *prompt.Outcome
	reached := false
	deliver := func(ctx context.Context, s *job.Session, a provider.Adapter) (job.Delivery, error) {
		reached = true
		res := s.Result()
		sr.Result = &res
		var d job.Delivery
		o, err := r.deliver(ctx, step, s, a, &sr, &d)
		if err == nil {
			outcome = o
			sr.Outcome = o
			d.Receipts = append(d.Receipts, job.Receipt{Layer: "contract", At: time.Now().UTC(), Data: outcomeData(step.Contract, o)})
		}
		return d, err
	}
	cooldown := r.req.RateLimitCooldown
	if cooldown <= 0 {
		cooldown = r.cooldown
	}
	runner := job.NewRunner(r.repo, job.WithRateLimitCooldown(cooldown), job.WithDeliverable(deliver))
	if r.req.OnEvent != nil {
		defer runner.Subscribe(r.req.OnEvent)()
	}
	s, err := runner.Create(ctx, job.Spec{Site: SiteID, Model: r.req.Model, Effort: r.req.Effort, TargetID: r.a.TargetID(), Prompt: step.Prompt, Task: r.task,
		Template: r.req.Template, Contract: string(step.Contract), Deadline: r.deadline, Origin: r.req.Origin,
		CodeMode: zipStep(step.Contract), RequestedTab: requested, TabWasCreated: r.created && first, Attachments: r.stepFiles(first)})
	if err != nil {
		return nil, err
	}
	// What a reattach needs to finish the step: where the zips go, the
	// delivery and the verifier's caps (see Reattach).
	if rec, uerr := r.repo.Update(ctx, s.ID, "", func(x *job.Session) error {
		x.Receipts = append(x.Receipts, r.settingsReceipt())
		return nil
	}); uerr == nil {
		s = rec
	}
	out, err := runner.Run(ctx, s.ID, r.a)
	if out == nil {
		out = s
	}
	r.sessions = append(r.sessions, out)
	if !reached && err != nil {
		sr.Error = errs.From(err)
	}
	r.receipt.Steps = append(r.receipt.Steps, sr)
	if err != nil {
		return nil, errs.From(err).WithEvidence("session", out.ID)
	}
	return outcome, nil
}

func (r *codeRun) firstTab() string {
	if len(r.receipt.Steps) > 0 && r.receipt.Steps[0].Result != nil {
		return r.receipt.Steps[0].Result.Routing.ControlledTabID
	}
	return r.a.TargetID()
}

// finish completes the receipt, writes it beside the outputs, records it in
// the last session and returns runErr.
func (r *codeRun) finish(ctx context.Context, runErr error) (*Outcome, error) {
	rc := r.receipt
	rc.FinishedAt = time.Now().UTC()
	judgeLayers(rc, runErr)
	if runErr != nil {
		rc.Error = errs.From(runErr)
		if errs.Has(runErr, errs.DeliverableMissing) && !r.req.AllowInline && len(rc.Zips) == 0 && lastStepWantsZip(rc) {
			rc.Error = errs.Wrap(runErr, errs.CodeArtifactMissing, "no sandbox zip came back: %s", rc.Error.Message)
			runErr = rc.Error
		}
	}
	rc.OK = runErr == nil
	for _, x := range r.sessions {
		rc.Sessions = append(rc.Sessions, x.ID)
	}
	name := rc.StartedAt.Format("20060102T150405Z") + "-" + shortID(rc.ConversationID) + ReceiptSuffix
	path := filepath.Join(r.out, name)
	rc.Path = path
	out := &Outcome{Receipt: rc, Sessions: r.sessions}
	if warning, err := WriteReceipt(path, rc, runErr); err != nil {
		return out, err
	} else if warning != "" {
		rc.Warnings = append(rc.Warnings, warning)
		rc.Path = ""
	}
	if last := out.Last(); last != nil {
		data := map[string]string{"kind": rc.Kind, "ok": strconv.FormatBool(rc.OK), "path": rc.Path,
			"routing": rc.Layers.Routing.Status, "transport": rc.Layers.Transport.Status,
			"content": rc.Layers.Content.Status, "download": rc.Layers.Download.Status}
		s, err := r.repo.Update(context.WithoutCancel(ctx), last.ID, "", func(x *job.Session) error {
			x.Receipts = append(x.Receipts, job.Receipt{Layer: "receipt", At: rc.FinishedAt, Data: data})
			return nil
		})
		if err == nil {
			out.Sessions[len(out.Sessions)-1] = s
		} else if runErr == nil {
			return out, err
		}
	}
	return out, runErr
}

// stepFiles are the files a step attaches: the request's, on the first
// message only (later messages go on in the same conversation).
func (r *codeRun) stepFiles(first bool) []attach.File {
	if !first {
		return nil
	}
	return r.req.Files
}
