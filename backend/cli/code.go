package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/service"
)

// stringList is a repeatable string flag (--source a --source b).
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
func (s *stringList) Get() any           { return []string(*s) }

func init() {
	register(&command{
		name:  "code",
		args:  "(--site chatgpt | --tab TARGETID | --conv ID) [--zip one|multi] [--allow-inline] [--contract C] [--architecture-authorized] [--goal-lock | --goal TEXT] [--research] [--repo DIR --source PATH ...] [--out DIR] (TASK | --prompt-file FILE | - | --template NAME [--var K=V ...])",
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

--template NAME renders a built-in or saved template (see ferry templates) with
one --var NAME=VALUE per variable as the task.

Every step is recorded as a session (see ferry sessions) with its template,
contract, the zips with their verdicts, and the receipt; when a Ferry owner runs
(the app or ferry serve) the run goes through it, with the same output.

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
			registerTemplateFlags(fs)
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

func runCode(ctx context.Context, inv *invocation) error {
	req, err := codeRequestOf(inv)
	if err != nil {
		return err
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	if req.OutDir == "" {
		req.OutDir = paths.ArtifactsDir()
	}
	if req.OutDir, err = filepath.Abs(req.OutDir); err != nil {
		return errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
	}
	if _, err := browserSpecOf(inv, paths, browserLaunch); err != nil {
		return err
	}
	c, err := core.Open(ctx, core.Options{DataDir: inv.dataDir, Role: "cli"})
	if err != nil {
		return err
	}
	defer c.Close()
	// Bad input (authorization, sizes, templates) fails before the browser
	// is touched.
	if err := c.CheckCode(ctx, req); err != nil {
		return err
	}
	b, err := openBrowser(ctx, inv, paths)
	if err != nil {
		return err
	}
	defer func() {
		cctx, stop := context.WithTimeout(context.Background(), 15*time.Second)
		defer stop()
		_ = b.Close(cctx)
	}()
	req.Browser = b
	out, err := c.RunCode(ctx, req)
	if out == nil || out.Receipt == nil {
		return err
	}
	return printCode(inv, out.Receipt, err)
}

// codeRequestOf reads and checks the flags of `ferry code` (nothing is
// opened): the task or template, the target, the delivery and the
// contract. OutDir is --out as given.
func codeRequestOf(inv *invocation) (core.CodeRequest, error) {
	var none core.CodeRequest
	task, tmpl, vars, err := promptOrTemplate(inv)
	if err != nil {
		return none, err
	}
	siteID, tabID, conv := inv.flag("site").(string), inv.flag("tab").(string), inv.flag("conv").(string)
	if siteID == "" && tabID == "" && conv == "" {
		return none, errs.New(errs.BadInput, "ferry code needs --site chatgpt, --tab TARGETID or --conv ID").WithHint("e.g. `ferry code --site chatgpt \"a CLI that greets\"`")
	}
	if conv != "" {
		if err := checkConvID(conv); err != nil {
			return none, err
		}
	}
	if siteID != "" && siteID != core.CodeSite {
		return none, errs.New(errs.CapabilityMissing, "code mode needs ChatGPT's sandbox; site %q has none", siteID).
			WithEvidence("site", siteID).WithHint("use --site chatgpt")
	}
	multi := inv.flag("multi-zip").(bool)
	switch z := inv.flag("zip").(string); z {
	case "one":
	case "multi":
		multi = true
	default:
		return none, errs.New(errs.BadInput, "--zip %q is neither one nor multi", z).WithHint("use --zip one (default) or --zip multi")
	}
	contract, err := prompt.ParseContract(inv.flag("contract").(string))
	if err != nil {
		return none, err
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return none, errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	repo, sources := inv.flag("repo").(string), inv.flag("source").([]string)
	if (repo == "") != (len(sources) == 0) {
		return none, errs.New(errs.BadInput, "--repo and --source go together").WithHint("pass --repo DIR and one --source PATH per file or directory")
	}
	req := core.CodeRequest{
		AskRequest: core.AskRequest{Site: siteID, Model: inv.flag("model").(string), Prompt: task, TargetID: tabID,
			Template: tmpl, Vars: vars, Timeout: timeout, Origin: job.OriginCLI},
		Conversation: conv, MultiZip: multi, AllowInline: inv.flag("allow-inline").(bool), OutDir: inv.flag("out").(string),
		Contract: contract, ArchitectureAuthorized: inv.flag("architecture-authorized").(bool),
		Goal: inv.flag("goal").(string), GoalLock: inv.flag("goal-lock").(bool), Research: inv.flag("research").(bool),
		RepoRoot: repo, SourcePaths: sources,
	}
	return req, nil
}

// printCode prints a code run's receipt (with --json) or its zips in words,
// and returns runErr (already printed with --json).
func printCode(inv *invocation, rc *Receipt, runErr error) error {
	if inv.json {
		if err := inv.printJSON(rc); err != nil {
			return err
		}
		if runErr != nil {
			return errReported{runErr}
		}
		return nil
	}
	printZips(inv, rc.Zips, rc.Warnings, rc.Path)
	return runErr
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

// codeGrace is how long a remote code run may take beyond its --timeout
// before the client gives up: the owner writes the receipt after the
// deadline cut the run short.
const codeGrace = 30 * time.Second

// remoteCode submits the code run as a job of the owner (the owner's jobs
// need no approval), waits for it to end and prints its receipt exactly as
// the embedded run does. Paths (--out, --repo) are made absolute here: the
// owner runs in another directory.
func remoteCode(ctx context.Context, inv *invocation, cl *client.Client) error {
	req, err := codeRequestOf(inv)
	if err != nil {
		return err
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	if req.OutDir == "" {
		req.OutDir = paths.ArtifactsDir()
	}
	if req.OutDir, err = filepath.Abs(req.OutDir); err != nil {
		return errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
	}
	if req.RepoRoot != "" {
		if req.RepoRoot, err = filepath.Abs(req.RepoRoot); err != nil {
			return errs.Wrap(err, errs.BadInput, "resolve --repo: %v", err)
		}
	}
	if inv.flag("browser-url").(string) != "" || inv.flag("chromium").(string) != "" || inv.flag("headless").(bool) {
		fmt.Fprintf(inv.stderr, "note: a Ferry owner runs (%s); the run uses its browser, --browser-url/--chromium/--headless are ignored\n", cl.Endpoint())
	}
	spec := hub.JobSpec{Kind: hub.KindCode, Prompt: req.Prompt, Site: req.Site, Model: req.Model, TabID: req.TargetID,
		Template: req.Template, Vars: req.Vars, Contract: string(req.Contract), Conversation: req.Conversation,
		MultiZip: req.MultiZip, AllowInline: req.AllowInline, ArchitectureAuthorized: req.ArchitectureAuthorized,
		Goal: req.Goal, GoalLock: req.GoalLock, Research: req.Research, OutDir: req.OutDir,
		RepoRoot: req.RepoRoot, SourcePaths: req.SourcePaths, TimeoutSeconds: int((req.Timeout + time.Second - 1) / time.Second)}
	j, err := cl.CreateJob(ctx, spec)
	if err != nil {
		return err
	}
	if j, err = waitRemote(ctx, cl, j, codeJobEnded, req.Timeout+codeGrace, "no verified result within --timeout "+req.Timeout.String()); err != nil {
		return err
	}
	var d service.JobDetail
	if j.Detail != nil {
		d = *j.Detail
	}
	var runErr error
	if j.Error != nil {
		runErr = j.Error
	}
	if d.Receipt == nil {
		if runErr != nil {
			return runErr
		}
		return errs.New(errs.Internal, "code job %s ended %s without a receipt; is the owner an older Ferry?", j.ID, j.State)
	}
	return printCode(inv, core.ReceiptOf(d.Receipt), runErr)
}

// codeJobEnded reports whether the owner's run of a code job returned: its
// receipt is written and kept with the job only then, after the last
// session ended.
func codeJobEnded(j hub.Job) bool { return j.Ended() }

// waitRemote polls job j until ended says so, cancelling it when ctx ends
// or after timeout (a Timeout envelope with message).
func waitRemote(ctx context.Context, cl *client.Client, j hub.Job, ended func(hub.Job) bool, timeout time.Duration, message string) (hub.Job, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(askPoll)
	defer tick.Stop()
	var err error
	for !ended(j) {
		select {
		case <-ctx.Done():
			cancelRemote(cl, j.ID)
			return j, errs.Wrap(ctx.Err(), errs.Cancelled, "the run was interrupted; job %s was cancelled", j.ID)
		case <-deadline.C:
			cancelRemote(cl, j.ID)
			return j, errs.New(errs.Timeout, "%s", message).WithEvidence("job", j.ID)
		case <-tick.C:
		}
		if j, err = cl.GetJob(ctx, j.ID); err != nil {
			return j, err
		}
	}
	return j, nil
}
