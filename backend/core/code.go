package core

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/version"
)

// CodeRequest is one code-mode run: ChatGPT builds a project in its sandbox
// and the verified zips come home. The embedded AskRequest says where and
// how to run (Site must be "" or chatgpt; Prompt is the task, or "" with a
// Template; NewChat is not used); the other fields are the code options.
type CodeRequest struct {
	AskRequest
	// Conversation continues the ChatGPT conversation
	// https://chatgpt.com/c/<Conversation>: in the tab that shows it (or
	// TargetID, which must show it), else in a new background tab.
	Conversation string
	// MultiZip asks for one named zip per logical part instead of one zip.
	MultiZip bool
	// AllowInline saves the answer's code blocks as a verified zip when the
	// answer has no sandbox zip.
	AllowInline bool
	// OutDir receives the zips, sidecars, the source provenance and the
	// receipt; "" is the settings' artifacts.outputDir, else the data
	// directory's artifacts/. It is created when missing.
	OutDir string
	// Contract is the output contract ("" is code).
	Contract prompt.Contract
	// ArchitectureAuthorized allows the plan and all contracts.
	ArchitectureAuthorized bool
	// Goal turns on the GOAL LOCK preamble and reminder; Research adds the
	// research directive.
	Goal     string
	Research bool
	// RepoRoot and SourcePaths (together) check that the paths are tracked,
	// clean and pushed, write .source-provenance.json into OutDir and name
	// the repository, commit and paths in the prompt.
	RepoRoot    string
	SourcePaths []string
	// GoalLock turns on the GOAL LOCK with the task as the goal when Goal
	// is empty.
	GoalLock bool
}

// CodeOutcome is everything a code run produced: the receipt written
// beside the outputs and the session of each step sent (one, or up to three
// for the all contract), the last one holding the artifacts.
type CodeOutcome struct {
	Receipt  *CodeReceipt
	Sessions []*job.Session
}

// Last is the session of the last step sent, or nil when none was created.
func (o *CodeOutcome) Last() *job.Session {
	if o == nil || len(o.Sessions) == 0 {
		return nil
	}
	return o.Sessions[len(o.Sessions)-1]
}

// DefaultCodeTimeout is the deadline of a code run whose request gives none.
const DefaultCodeTimeout = 30 * time.Minute

// Code runs a code-mode request through the journaled pipeline and returns
// the session of its last step (see RunCode, whose errors it returns). The
// session is nil when the run failed before a session was created.
func (c *Core) Code(ctx context.Context, req CodeRequest) (*job.Session, error) {
	out, err := c.RunCode(ctx, req)
	return out.Last(), err
}

// RunCode composes the code-mode prompt (the task or the rendered template,
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
func (c *Core) RunCode(ctx context.Context, req CodeRequest) (*CodeOutcome, error) {
	steps, preq, err := c.composeCode(ctx, &req)
	if err != nil {
		return nil, err
	}
	out, err := c.codeOutDir(req.OutDir)
	if err != nil {
		return nil, err
	}
	reg, err := c.Sites()
	if err != nil {
		return nil, err
	}
	repo, err := c.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	timeout := req.Timeout
	if timeout == 0 {
		timeout = DefaultCodeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()

	r := &codeRun{c: c, req: req, out: out, repo: repo, limits: c.Settings().Artifacts, deadline: deadline}
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
		if b, err = c.openBrowser(ctx, req.AskRequest); err != nil {
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
		page, st, r.created, err = ConversationTab(ctx, b, reg, req.Conversation, req.TargetID, false)
	case req.NewChat:
		page, st, err = OpenSiteTab(ctx, b, reg, chatgpt.ID)
		r.created = true
	default:
		page, st, r.created, err = ResolveTab(ctx, b, reg, chatgpt.ID, req.TargetID)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		cctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = page.Detach(cctx)
	}()
	a, err := ChatGPTAdapter(page, st, reg)
	if err != nil {
		return nil, err
	}
	r.a = a
	r.b, r.reg = b, reg

	runErr := r.drive(ctx, steps)
	if runErr != nil && ctx.Err() != nil && errs.CodeOf(runErr) != errs.Timeout {
		runErr = errs.Wrap(runErr, errs.Timeout, "no verified result within --timeout %s", timeout)
	}
	return r.finish(ctx, runErr)
}

// composeCode checks the request and composes its steps once, so that bad
// input fails before the browser is touched (RunCode composes again with
// the source provenance).
func (c *Core) composeCode(ctx context.Context, req *CodeRequest) ([]prompt.Step, prompt.Request, error) {
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
	if req.Site != "" && req.Site != chatgpt.ID {
		return nil, none, errs.New(errs.CapabilityMissing, "code mode needs ChatGPT's sandbox; site %q has none", req.Site).
			WithEvidence("site", req.Site).WithHint("use --site chatgpt")
	}
	if req.Timeout < 0 {
		return nil, none, errs.New(errs.BadInput, "--timeout must be positive, got %s", req.Timeout)
	}
	if req.Origin == "" {
		req.Origin = job.OriginCLI
	}
	task, err := c.taskOf(ctx, req.Prompt, req.Template, req.Vars)
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

// taskOf is the prompt text, or the rendering of the template with vars;
// exactly one of them.
func (c *Core) taskOf(ctx context.Context, text, template string, vars map[string]string) (string, error) {
	if template == "" {
		if len(vars) > 0 {
			return "", errs.New(errs.BadInput, "variables were given without a template").
				WithHint("add --template NAME, or drop the --var flags")
		}
		return text, nil
	}
	if strings.TrimSpace(text) != "" {
		return "", errs.New(errs.BadInput, "give the prompt or a template, not both").
			WithHint("drop the prompt text, or drop --template")
	}
	return c.RenderTemplate(ctx, template, vars)
}

// codeOutDir is dir, else the settings' artifacts.outputDir, else the data
// directory's artifacts/, absolute and created.
func (c *Core) codeOutDir(dir string) (string, error) {
	if dir == "" {
		dir = c.Settings().Artifacts.OutputDir
	}
	if dir == "" {
		dir = c.paths.ArtifactsDir()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", errs.Wrap(err, errs.BadInput, "create the output directory %s: %v", abs, err).WithHint("pass --out with a writable directory")
	}
	return abs, nil
}

// codeRun is one code run: its settings and what it found.
type codeRun struct {
	c        *Core
	req      CodeRequest
	out      string
	repo     *job.Repo
	limits   config.ArtifactSettings
	deadline time.Time
	b        *browser.Browser
	reg      *site.Registry
	a        *chatgpt.Adapter
	created  bool
	receipt  *CodeReceipt
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
		res := ResultOf(s)
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
		cooldown = r.c.Settings().RateLimitCooldownDuration()
	}
	runner := job.NewRunner(r.repo, job.WithRateLimitCooldown(cooldown), job.WithDeliverable(deliver))
	if r.req.OnEvent != nil {
		defer runner.Subscribe(r.req.OnEvent)()
	}
	s, err := runner.Create(ctx, job.Spec{Site: chatgpt.ID, Model: r.req.Model, TargetID: r.a.TargetID(), Prompt: step.Prompt,
		Template: r.req.Template, Contract: string(step.Contract), Deadline: r.deadline, Origin: r.req.Origin,
		CodeMode: zipStep(step.Contract), RequestedTab: requested, TabWasCreated: r.created && first})
	if err != nil {
		return nil, err
	}
	// What a reattach needs to finish the step: where the zips go, the
	// delivery and the verifier's caps (see codeReattach).
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

// deliver is the Runner's Deliverable of one step: the compliance of the
// answer, the zips of this turn brought home (or the inline fallback), and
// the contract check. It fills sr (the receipt's step) and d (the session's
// artifacts).
func (r *codeRun) deliver(ctx context.Context, step prompt.Step, s *job.Session, a provider.Adapter, sr *StepReceipt, d *job.Delivery) (*prompt.Outcome, error) {
	if s.ConversationID != "" {
		r.receipt.ConversationID = s.ConversationID
		r.receipt.ConversationURL = artifact.Origin + "/c/" + s.ConversationID
	}
	ans := prompt.Answer{Text: s.Answer}
	if zipStep(step.Contract) {
		ca, ok := a.(*chatgpt.Adapter)
		if !ok {
			return nil, errs.New(errs.CapabilityMissing, "the run's tab is driven by %T, which has no sandbox", a)
		}
		expected := ""
		if !r.req.MultiZip {
			expected = artifact.SandboxDir + prompt.DefaultZipName
		}
		sr.Compliance = prompt.Compliance(s.Answer, r.req.MultiZip, expected)
		zips, err := r.bringHome(ctx, ca, s, d)
		if err != nil {
			return nil, err
		}
		ans.Zips = zips
	}
	o, err := prompt.Check(step.Contract, ans.Text, ans.Zips)
	if err != nil && zipStep(step.Contract) && errs.Has(err, errs.DeliverableMissing) && !r.req.AllowInline && len(r.receipt.Zips) == 0 {
		// The catalog's hint names --allow-inline.
		err = errs.Wrap(err, errs.CodeArtifactMissing, "no sandbox zip came back: %s", errs.From(err).Message)
	}
	return o, err
}

// bringHome finds the zips of the answer's turn and retrieves each, or
// falls back to the inline code blocks; every zip becomes a receipt line
// and a session artifact.
func (r *codeRun) bringHome(ctx context.Context, a *chatgpt.Adapter, s *job.Session, d *job.Delivery) ([]prompt.Zip, error) {
	if s.ConversationID == "" {
		return nil, errs.New(errs.ArtifactNotFound, "the answer came without a conversation id, so no zip can be minted")
	}
	conv, err := a.Conversation(ctx, s.ConversationID)
	if err != nil {
		return nil, err
	}
	if r.resume && s.MessageID == "" {
		// A reattach that collected the answer from the page: find its
		// turn by the prompt, never take another turn's zips.
		branch, err := conv.Branch()
		if err != nil {
			return nil, err
		}
		if s.MessageID = promptAnswer(branch, s.Prompt); s.MessageID == "" {
			return nil, errs.New(errs.ArtifactNotFound, "conversation %s does not hold the run's prompt", s.ConversationID).
				WithEvidence("conversation", s.ConversationID)
		}
	}
	found, err := turnZips(conv, s.MessageID)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return r.inline(ctx, s, d)
	}
	prov := artifact.Provenance{Site: chatgpt.ID}
	var results []artifact.Result
	if r.resume {
		// A reattach: what this turn already saved and verified stays (or
		// is adopted when only its sidecar is missing), and only the rest is
		// fetched.
		_, _ = artifact.SweepDeadTemps(r.out)
		results, found = r.savedZips(ctx, s, found)
		var adopted []artifact.Result
		adopted, found = r.adoptZips(ctx, s, found, d)
		results = append(results, adopted...)
	}
	if len(found) > 0 {
		opts := append(RetrieveOptions(r.limits), artifact.WithSave(artifact.WithBeforeLink(r.journalZip(ctx, s.ID))))
		more, ferr := artifact.RetrieveAll(ctx, a.Fetcher(), s.ConversationID, found, r.out, prov, opts...)
		if ferr != nil && (len(results) == 0 || ctx.Err() != nil) {
			// Nothing was already home (or the run was stopped).
			err = ferr
		}
		results = append(results, more...)
	}
	var zips []prompt.Zip
	for _, x := range results {
		zr := ZipReceiptOf(x)
		if zr.Verified {
			zips = append(zips, prompt.Zip{Path: x.Path, Verified: true, Files: zr.Files})
		}
		r.receipt.Zips = append(r.receipt.Zips, zr)
		d.Artifacts = append(d.Artifacts, artifactOf(zr))
	}
	d.Receipts = append(d.Receipts, r.downloadReceipt())
	if err != nil {
		return zips, err
	}
	if failed := artifact.Failed(results); failed != "" {
		w := "not saved as good: " + failed
		r.receipt.Warnings = append(r.receipt.Warnings, w)
		d.Warnings = append(d.Warnings, w)
	}
	return zips, nil
}

// inline is the AllowInline fallback for an answer without a zip: its
// named code blocks become a zip that goes through the same verifier and
// atomic save as a sandbox zip.
func (r *codeRun) inline(ctx context.Context, s *job.Session, d *job.Delivery) ([]prompt.Zip, error) {
	if !r.req.AllowInline {
		// The contract check reports the missing deliverable (as
		// code_artifact_missing); an answer with a diff still meets the
		// code contract.
		return nil, nil
	}
	if r.resume {
		if saved := r.savedZip(ctx, s, []string{s.MessageID}, ""); saved != nil {
			// A reattach: the inline zip was saved before the interruption.
			zr := ZipReceiptOf(artifact.Result{Saved: saved})
			zr.Inline = true
			r.receipt.Zips = append(r.receipt.Zips, zr)
			d.Artifacts = append(d.Artifacts, artifactOf(zr))
			d.Receipts = append(d.Receipts, r.downloadReceipt())
			return []prompt.Zip{{Path: saved.Path, Verified: true, Files: zr.Files}}, nil
		}
	}
	files, err := artifact.InlineFiles(s.Answer)
	if err != nil && errs.Has(err, errs.ArtifactNotFound) && len(s.CodeBlocks) > 0 {
		files, err = &artifact.InlineResult{Files: unnamedBlocks(s.CodeBlocks)}, nil
	}
	if err != nil {
		return nil, errs.From(err).WithHint("the answer has no zip and no code block; ask again for the zip")
	}
	var buf bytes.Buffer
	if err := artifact.WriteInlineZip(&buf, files.Files); err != nil {
		return nil, err
	}
	name := "inline-" + shortID(s.ConversationID) + ".zip"
	prov := artifact.Provenance{Site: chatgpt.ID, ConversationID: s.ConversationID, MessageID: s.MessageID,
		ConversationURL: artifact.Origin + "/c/" + s.ConversationID}
	saved, err := artifact.Save(ctx, r.out, name, &buf, prov, artifact.WithFerryVersion(version.Version), artifact.WithVerify(VerifyLimits(r.limits)...))
	zr := ZipReceipt{Inline: true}
	if saved != nil {
		zr.SavedPath, zr.Sidecar, zr.Quarantined = saved.Path, saved.SidecarPath, saved.Quarantined
		if v := saved.Verdict; v != nil {
			zr.SHA256, zr.Size, zr.Files = v.SHA256, v.Size, v.Files
		}
	}
	if err != nil {
		zr.Error = errs.From(err)
	} else {
		zr.Verified = true
	}
	r.receipt.Zips = append(r.receipt.Zips, zr)
	d.Artifacts = append(d.Artifacts, artifactOf(zr))
	d.Receipts = append(d.Receipts, r.downloadReceipt())
	if err != nil {
		return nil, err
	}
	w := fmt.Sprintf("no sandbox zip: saved %d named code blocks as %s (--allow-inline)", len(files.Files), filepath.Base(saved.Path))
	r.receipt.Warnings = append(r.receipt.Warnings, w)
	d.Warnings = append(d.Warnings, w)
	return []prompt.Zip{{Path: saved.Path, Verified: true, Files: zr.Files}}, nil
}

// finish completes the receipt, writes it beside the outputs, records it in
// the last session and returns runErr.
func (r *codeRun) finish(ctx context.Context, runErr error) (*CodeOutcome, error) {
	rc := r.receipt
	rc.FinishedAt = time.Now().UTC()
	rc.layers(runErr)
	if runErr != nil {
		rc.Error = errs.From(runErr)
		if errs.Has(runErr, errs.DeliverableMissing) && !r.req.AllowInline && len(rc.Zips) == 0 && rc.lastStepWantsZip() {
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
	out := &CodeOutcome{Receipt: rc, Sessions: r.sessions}
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

// downloadReceipt is the session's download layer as it stands.
func (r *codeRun) downloadReceipt() job.Receipt {
	good := 0
	for _, z := range r.receipt.Zips {
		if z.Verified {
			good++
		}
	}
	return job.Receipt{Layer: "download", At: time.Now().UTC(), Data: map[string]string{
		"zips": strconv.Itoa(len(r.receipt.Zips)), "verified": strconv.Itoa(good), "out": r.out}}
}

// artifactOf is a zip's receipt line as a session artifact.
func artifactOf(z ZipReceipt) job.Artifact {
	a := job.Artifact{Name: filepath.Base(z.SavedPath), Path: z.SavedPath, SHA256: z.SHA256, Bytes: z.Size, Verdict: "verified"}
	if a.Name == "." || z.SavedPath == "" {
		a.Name = filepath.Base(z.SandboxPath)
	}
	switch {
	case z.Verified:
	case z.Quarantined:
		a.Verdict = "quarantined"
	default:
		a.Verdict = "rejected"
	}
	if z.Error != nil {
		a.Reason = string(z.Error.Code) + ": " + z.Error.Message
	}
	return a
}

// outcomeData is a contract outcome as receipt data.
func outcomeData(c prompt.Contract, o *prompt.Outcome) map[string]string {
	d := map[string]string{"contract": string(c)}
	if o == nil {
		return d
	}
	if o.Ruling != "" {
		d["ruling"] = o.Ruling
	}
	if o.PlanSteps > 0 {
		d["plan_steps"] = strconv.Itoa(o.PlanSteps)
	}
	if o.Diff {
		d["diff"] = "true"
	}
	if len(o.Zips) > 0 {
		d["zips"] = strings.Join(o.Zips, " ")
	}
	return d
}

// lastStepWantsZip reports whether the run's last step asked for a sandbox
// zip (the code or none contract).
func (rc *CodeReceipt) lastStepWantsZip() bool {
	if len(rc.Steps) == 0 {
		return false
	}
	return zipStep(rc.Steps[len(rc.Steps)-1].Contract)
}

// RetrieveOptions are the download and verifier limits of the settings.
func RetrieveOptions(a config.ArtifactSettings) []artifact.RetrieveOption {
	return []artifact.RetrieveOption{
		artifact.WithMaxDownload(a.MaxZipBytes),
		artifact.WithSave(artifact.WithFerryVersion(version.Version), artifact.WithVerify(VerifyLimits(a)...)),
	}
}

// VerifyLimits are the verifier's caps from the settings.
func VerifyLimits(a config.ArtifactSettings) []artifact.VerifyOption {
	return []artifact.VerifyOption{
		artifact.WithMaxEntries(a.MaxEntries),
		artifact.WithMaxTotalSize(a.MaxTotalUncompressedBytes),
		artifact.WithMaxRatio(int(a.MaxRatio)),
	}
}

// unnamedBlocks names an answer's code blocks block-01.<ext>, … when none
// of them carries a file name, so that AllowInline still keeps the code.
func unnamedBlocks(blocks []provider.CodeBlock) []artifact.InlineFile {
	out := make([]artifact.InlineFile, 0, len(blocks))
	for i, b := range blocks {
		out = append(out, artifact.InlineFile{Path: fmt.Sprintf("block-%02d.%s", i+1, langExt(b.Language)), Lang: b.Language, Content: b.Code})
	}
	return out
}

// langExt is the file extension for a fence's language tag.
func langExt(lang string) string {
	l := strings.ToLower(strings.TrimSpace(lang))
	switch l {
	case "python", "py":
		return "py"
	case "bash", "sh", "shell", "zsh", "console":
		return "sh"
	case "javascript", "js", "node":
		return "js"
	case "typescript", "ts":
		return "ts"
	case "golang", "go":
		return "go"
	case "yaml", "yml":
		return "yaml"
	case "markdown", "md":
		return "md"
	case "rust", "rs":
		return "rs"
	}
	if l != "" && len(l) <= 8 && strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789") == "" {
		return l
	}
	return "txt"
}

// turnZips returns the zips of the conversation that messages after the
// last user message before answerID hold, with only those message ids: a
// tab that continues an older conversation must not bring its old zips
// home as this run's.
func turnZips(conv *artifact.Conversation, answerID string) ([]artifact.Found, error) {
	branch, err := conv.Branch()
	if err != nil {
		return nil, err
	}
	end := len(branch)
	for i, m := range branch {
		if m.ID == answerID {
			end = i + 1
		}
	}
	start := 0
	for i := end - 1; i >= 0; i-- {
		if branch[i].Author.Role == "user" {
			start = i + 1
			break
		}
	}
	turn := map[string]bool{}
	for _, m := range branch[start:end] {
		turn[m.ID] = true
	}
	scan, err := artifact.ScanConversation(conv)
	if err != nil {
		return nil, err
	}
	var out []artifact.Found
	for _, f := range scan.Zips {
		var ids []string
		for _, id := range f.MessageIDs {
			if turn[id] {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			f.MessageIDs = ids
			out = append(out, f)
		}
	}
	return out, nil
}

// shortID is the first 12 characters of a conversation id, for file names.
func shortID(id string) string {
	if id == "" {
		return "noconv"
	}
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// CheckCode checks req as RunCode does before it touches the browser (the
// target, the contract and its authorization, the task or the template and
// its variables, the sizes), with RunCode's envelopes; nothing is opened or
// written.
func (c *Core) CheckCode(ctx context.Context, req CodeRequest) error {
	_, _, err := c.composeCode(ctx, &req)
	return err
}
