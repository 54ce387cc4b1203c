package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/version"
)

// ReceiptSuffix ends the name of the receipt `ferry code` writes beside its
// outputs.
const ReceiptSuffix = ".receipt.json"

// stringList is a repeatable string flag (--source a --source b).
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
func (s *stringList) Get() any           { return []string(*s) }

func init() {
	register(&command{
		name:  "code",
		args:  "(--site chatgpt | --tab TARGETID | --conv ID) [--zip one|multi] [--allow-inline] [--contract C] [--architecture-authorized] [--goal-lock | --goal TEXT] [--research] [--repo DIR --source PATH ...] [--out DIR] (TASK | --prompt-file FILE | -)",
		short: "have ChatGPT build a project in its sandbox and bring the verified zip home",
		long: `Composes a code-mode prompt from TASK (delivery as one sandbox zip, or with
--zip multi one named zip per part; the output contract; the optional GOAL LOCK,
research directive and source provenance), sends it once in the ChatGPT tab, waits
for the complete answer, reads the canonical conversation, finds every
/mnt/data/*.zip of this turn, and brings each home through the page: the download
URL is minted with the session's bearer token and fetched inside the browser, so
the cookies never leave it. Each zip is verified (structure, every CRC, names,
links, ratios, caps) and saved atomically into --out (default: the data
directory's artifacts/) with a <name>.zip.provenance.json sidecar. Unsafe zips go
to --out/quarantine/, damaged ones are deleted: neither is ever saved as good.

--conv ID continues the ChatGPT conversation https://chatgpt.com/c/ID: in the tab
that shows it (or --tab, which must show it), else in a new background tab
opened on it.

Contracts: code (default), assess, plan, all (assess -> plan -> code on the same
tab, stopping at the first missing deliverable), none; plan and all need
--architecture-authorized. --repo DIR --source PATH (repeatable) checks that the
paths are tracked, clean and pushed, writes .source-provenance.json into --out
and names the repository, commit and paths in the prompt.

A receipt (<time>-<conversation>.receipt.json in --out) names the proof layers:
routing (the tab asked for is the tab driven), transport (how the complete answer
was seen), content (the contract's deliverable) and download (saved and
verified). With --json it is also printed. The access token and the signed
download URLs are never written anywhere.

Exit codes: 0 a verified zip was saved (or, with --allow-inline and no zip, the
answer's named code blocks were saved as a verified zip); 2 bad input; 3 blocked
before send; 4 routing; 5 the deliverable is missing (code_artifact_missing: the answer has no zip); 6 timeout; 7 an artifact
failure (expired sandbox, refused download, damaged or unsafe zip).`,
		flags: func(fs *flag.FlagSet) {
			fs.String("site", "", "site id (only chatgpt has a sandbox)")
			fs.String("tab", "", "CDP TargetID of the tab to use (exactly that tab)")
			fs.String("conv", "", "continue this ChatGPT conversation (the <id> of https://chatgpt.com/c/<id>)")
			fs.String("model", "", "model alias of the site (default: whatever is selected)")
			fs.String("prompt", "", "the task (instead of the positional argument)")
			fs.String("prompt-file", "", "read the task from this file")
			fs.String("zip", "one", "delivery: one zip, or multi (one named zip per logical part)")
			fs.Bool("multi-zip", false, "same as --zip multi")
			fs.Bool("allow-inline", false, "when the answer has no zip, save its named code blocks as a zip")
			fs.String("contract", string(prompt.ContractCode), "output contract: code, assess, plan, all or none")
			fs.Bool("architecture-authorized", false, "allow the plan and all contracts")
			fs.Bool("goal-lock", false, "add the GOAL LOCK preamble and reminder, with the task as the goal")
			fs.String("goal", "", "add the GOAL LOCK with this goal")
			fs.Bool("research", false, "add the research directive")
			var repo string
			fs.StringVar(&repo, "repo", "", "git checkout the sources come from (with --source)")
			fs.StringVar(&repo, "repo-root", "", "same as --repo")
			src := &stringList{}
			fs.Var(src, "source", "a source path in --repo the task is about (repeatable)")
			fs.Var(src, "source-path", "same as --source")
			fs.String("out", "", "directory for the zips, sidecars and receipt (default: <data dir>/artifacts)")
			registerBrowserFlags(fs, browserLaunch)
			fs.Duration("timeout", 30*time.Minute, "give up after this long")
		},
		run: runCode,
	})
}

// codeRun is one `ferry code` run: its settings and what it found.
type codeRun struct {
	inv         *invocation
	out         string
	multi       bool
	allowInline bool
	model       string
	requested   string // --tab
	limits      config.ArtifactSettings
	created     bool
	a           *chatgpt.Adapter
	receipt     *Receipt
}

func runCode(ctx context.Context, inv *invocation) error {
	task, err := askPrompt(inv)
	if err != nil {
		return err
	}
	siteID, tabID, conv := inv.flag("site").(string), inv.flag("tab").(string), inv.flag("conv").(string)
	if siteID == "" && tabID == "" && conv == "" {
		return errs.New(errs.BadInput, "ferry code needs --site chatgpt, --tab TARGETID or --conv ID").WithHint("e.g. `ferry code --site chatgpt \"a CLI that greets\"`")
	}
	if conv != "" {
		if err := checkConvID(conv); err != nil {
			return err
		}
	}
	if siteID != "" && siteID != chatgpt.ID {
		return errs.New(errs.CapabilityMissing, "code mode needs ChatGPT's sandbox; site %q has none", siteID).
			WithEvidence("site", siteID).WithHint("use --site chatgpt")
	}
	multi := inv.flag("multi-zip").(bool)
	switch z := inv.flag("zip").(string); z {
	case "one":
	case "multi":
		multi = true
	default:
		return errs.New(errs.BadInput, "--zip %q is neither one nor multi", z).WithHint("use --zip one (default) or --zip multi")
	}
	contract, err := prompt.ParseContract(inv.flag("contract").(string))
	if err != nil {
		return err
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	goal := inv.flag("goal").(string)
	if inv.flag("goal-lock").(bool) && strings.TrimSpace(goal) == "" {
		goal = task
	}
	req := prompt.Request{
		Task: task, Contract: contract, Authorized: inv.flag("architecture-authorized").(bool),
		Zip: true, MultiZip: multi, Goal: goal, Research: inv.flag("research").(bool),
	}
	repo, sources := inv.flag("repo").(string), inv.flag("source").([]string)
	if (repo == "") != (len(sources) == 0) {
		return errs.New(errs.BadInput, "--repo and --source go together").WithHint("pass --repo DIR and one --source PATH per file or directory")
	}
	// Compose once before anything else so that bad input (authorization,
	// sizes) fails before the browser is touched; again with provenance.
	if _, err := prompt.Compose(req); err != nil {
		return err
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	out := inv.flag("out").(string)
	if out == "" {
		out = paths.ArtifactsDir()
	}
	if out, err = filepath.Abs(out); err != nil {
		return errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
	}
	settings, err := config.Load(paths.SettingsFile())
	if err != nil {
		return err
	}
	reg, err := core.SiteRegistry(settings)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return errs.Wrap(err, errs.BadInput, "create the output directory %s: %v", out, err).WithHint("pass --out with a writable directory")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	r := &codeRun{inv: inv, out: out, multi: multi, allowInline: inv.flag("allow-inline").(bool),
		model: inv.flag("model").(string), requested: tabID, limits: settings.Artifacts}
	r.receipt = newReceipt(contract, multi, r.allowInline)
	if repo != "" {
		sp, err := prompt.CheckSources(ctx, repo, sources)
		if err != nil {
			return err
		}
		req.Source = sp
		p, err := prompt.WriteSourceProvenance(out, sp)
		if err != nil {
			return err
		}
		r.receipt.SourceProvenance = p
	}
	steps, err := prompt.Compose(req)
	if err != nil {
		return err
	}

	b, err := openBrowser(ctx, inv, paths)
	if err != nil {
		return err
	}
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 15*time.Second)
		defer stop()
		_ = b.Close(c)
	}()
	var page *browser.Page
	var s site.Site
	var created bool
	if conv != "" {
		page, s, created, err = conversationTab(ctx, b, reg, conv, tabID, false)
	} else {
		page, s, created, err = resolveTab(ctx, b, reg, chatgpt.ID, tabID)
	}
	if err != nil {
		return err
	}
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = page.Detach(c)
	}()
	a, err := chatgptAdapter(page, s, reg)
	if err != nil {
		return err
	}
	r.a, r.created = a, created

	checked, runErr := prompt.Drive(ctx, steps, r.ask)
	// Drive lists the steps whose ask returned, a prefix of the receipt's.
	for i, c := range checked {
		if i < len(r.receipt.Steps) {
			r.receipt.Steps[i].Outcome = c.Outcome
		}
	}
	if runErr != nil && ctx.Err() != nil && errs.CodeOf(runErr) != errs.Timeout {
		runErr = errs.Wrap(runErr, errs.Timeout, "no verified result within --timeout %s", timeout)
	}
	return r.finish(runErr)
}

// ask sends one step on the run's tab, checks where the answer's zips are
// and brings them home; it is the prompt.Asker of the run.
func (r *codeRun) ask(ctx context.Context, step prompt.Step) (prompt.Answer, error) {
	first := len(r.receipt.Steps) == 0
	req := provider.Request{Prompt: step.Prompt, Model: r.model, RequestedTab: r.requested, TabWasCreated: r.created && first}
	if !first {
		// Every later step must land on the tab of the first.
		req.RequestedTab = r.receipt.Steps[0].Result.Routing.ControlledTabID
	}
	zipStep := step.Contract == prompt.ContractCode || step.Contract == prompt.ContractNone
	if zipStep {
		req.Features = []site.Feature{site.FeatureCodeArtifacts}
	}
	sr := StepReceipt{Contract: step.Contract, PromptSHA256: provider.ContentOf(step.Prompt, "").SHA256}
	res, err := provider.Ask(ctx, r.a, req)
	if err != nil {
		sr.Error = errs.From(err)
		r.receipt.Steps = append(r.receipt.Steps, sr)
		return prompt.Answer{}, err
	}
	sr.Result = res
	r.receipt.ConversationID = res.ConversationID
	if res.ConversationID != "" {
		r.receipt.ConversationURL = artifact.Origin + "/c/" + res.ConversationID
	}
	ans := prompt.Answer{Text: res.Answer}
	if !zipStep {
		r.receipt.Steps = append(r.receipt.Steps, sr)
		return ans, nil
	}
	expected := ""
	if !r.multi {
		expected = artifact.SandboxDir + prompt.DefaultZipName
	}
	sr.Compliance = prompt.Compliance(res.Answer, r.multi, expected)
	r.receipt.Steps = append(r.receipt.Steps, sr)

	if res.ConversationID == "" {
		return ans, errs.New(errs.ArtifactNotFound, "the answer came without a conversation id, so no zip can be minted")
	}
	conv, err := r.a.Conversation(ctx, res.ConversationID)
	if err != nil {
		return ans, err
	}
	found, err := turnZips(conv, res.MessageID)
	if err != nil {
		return ans, err
	}
	if len(found) == 0 {
		return r.inline(ctx, res, ans)
	}
	prov := artifact.Provenance{Site: chatgpt.ID}
	results, err := artifact.RetrieveAll(ctx, r.a.Fetcher(), res.ConversationID, found, r.out, prov, retrieveOptions(r.limits)...)
	for _, x := range results {
		zr := zipReceiptOf(x)
		if zr.Verified {
			ans.Zips = append(ans.Zips, prompt.Zip{Path: x.Path, Verified: true, Files: zr.Files})
		}
		r.receipt.Zips = append(r.receipt.Zips, zr)
	}
	if err != nil {
		return ans, err
	}
	if failed := artifact.Failed(results); failed != "" {
		r.receipt.Warnings = append(r.receipt.Warnings, "not saved as good: "+failed)
	}
	return ans, nil
}

// inline is the --allow-inline fallback for an answer without a zip: its
// named code blocks become a zip that goes through the same verifier and
// atomic save as a sandbox zip.
func (r *codeRun) inline(ctx context.Context, res *provider.Result, ans prompt.Answer) (prompt.Answer, error) {
	if !r.allowInline {
		// The contract check reports the missing deliverable (exit 5, as
		// code_artifact_missing: see finish); an answer with a diff still
		// meets the code contract.
		return ans, nil
	}
	files, err := artifact.InlineFiles(res.Answer)
	if err != nil && errs.Has(err, errs.ArtifactNotFound) && len(res.CodeBlocks) > 0 {
		files, err = &artifact.InlineResult{Files: unnamedBlocks(res.CodeBlocks)}, nil
	}
	if err != nil {
		return ans, errs.From(err).WithHint("the answer has no zip and no code block; ask again for the zip")
	}
	var buf bytes.Buffer
	if err := artifact.WriteInlineZip(&buf, files.Files); err != nil {
		return ans, err
	}
	name := "inline-" + shortID(res.ConversationID) + ".zip"
	prov := artifact.Provenance{Site: chatgpt.ID, ConversationID: res.ConversationID, MessageID: res.MessageID,
		ConversationURL: artifact.Origin + "/c/" + res.ConversationID}
	saved, err := artifact.Save(ctx, r.out, name, &buf, prov, artifact.WithFerryVersion(version.Version), artifact.WithVerify(verifyLimits(r.limits)...))
	zr := ZipReceipt{Inline: true}
	if saved != nil {
		zr.SavedPath, zr.Sidecar, zr.Quarantined = saved.Path, saved.SidecarPath, saved.Quarantined
		if v := saved.Verdict; v != nil {
			zr.SHA256, zr.Size, zr.Files = v.SHA256, v.Size, v.Files
		}
	}
	if err != nil {
		zr.Error = errs.From(err)
		r.receipt.Zips = append(r.receipt.Zips, zr)
		return ans, err
	}
	zr.Verified = true
	r.receipt.Zips = append(r.receipt.Zips, zr)
	r.receipt.Warnings = append(r.receipt.Warnings, fmt.Sprintf("no sandbox zip: saved %d named code blocks as %s (--allow-inline)", len(files.Files), filepath.Base(saved.Path)))
	ans.Zips = append(ans.Zips, prompt.Zip{Path: saved.Path, Verified: true, Files: zr.Files})
	return ans, nil
}

// unnamedBlocks names an answer's code blocks block-01.<ext>, … when none
// of them carries a file name, so that --allow-inline still keeps the code.
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

// finish completes the receipt, writes it beside the outputs, prints the
// result and returns runErr (already printed with --json).
func (r *codeRun) finish(runErr error) error {
	rc := r.receipt
	rc.FinishedAt = time.Now().UTC()
	rc.layers(runErr)
	if runErr != nil {
		rc.Error = errs.From(runErr)
		if errs.Has(runErr, errs.DeliverableMissing) && !r.allowInline && len(rc.Zips) == 0 && rc.lastStepWantsZip() {
			// The catalog's hint names --allow-inline.
			rc.Error = errs.Wrap(runErr, errs.CodeArtifactMissing, "no sandbox zip came back: %s", rc.Error.Message)
			runErr = rc.Error
		}
	}
	rc.OK = runErr == nil
	name := rc.StartedAt.Format("20060102T150405Z") + "-" + shortID(rc.ConversationID) + ReceiptSuffix
	path := filepath.Join(r.out, name)
	rc.Path = path
	if warning, err := writeReceipt(path, rc, runErr); err != nil {
		return err
	} else if warning != "" {
		rc.Warnings = append(rc.Warnings, warning)
		rc.Path = ""
	}
	if r.inv.json {
		if err := r.inv.printJSON(rc); err != nil {
			return err
		}
		if runErr != nil {
			return errReported{runErr}
		}
		return nil
	}
	printZips(r.inv, rc.Zips, rc.Warnings, rc.Path)
	return runErr
}

// lastStepWantsZip reports whether the run's last step asked for a sandbox
// zip (the code or none contract).
func (rc *Receipt) lastStepWantsZip() bool {
	if len(rc.Steps) == 0 {
		return false
	}
	c := rc.Steps[len(rc.Steps)-1].Contract
	return c == prompt.ContractCode || c == prompt.ContractNone
}

func shortID(id string) string {
	if id == "" {
		return "noconv"
	}
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
