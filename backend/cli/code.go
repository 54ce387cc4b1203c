package cli

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
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
		args:  "(--site chatgpt | --tab TARGETID | --conv ID) [--zip one|multi] [--allow-inline] [--contract C] [--architecture-authorized] [--goal-lock | --goal TEXT] [--research] [--repo DIR --source PATH ... [--source-as zip]] [--out DIR] (TASK | --prompt-file FILE | - | --template NAME [--var K=V ...])",
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
and names the repository, commit and paths in the prompt. With --source-as zip
the sources go instead as one attached zip of their tracked files at HEAD (they
must be tracked and clean; no push is needed), removed again after the run.

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
failure (expired sandbox, refused download, damaged or unsafe zip); 9 disk full (the
data directory's or the output directory's disk has no room: no half-written file is left).`,
		flags: func(fs *flag.FlagSet) {
			fs.String("site", "", "site id (only chatgpt has a sandbox)")
			fs.String("tab", "", "CDP TargetID of the tab to use (exactly that tab)")
			fs.String("conv", "", "continue this ChatGPT conversation (the <id> of https://chatgpt.com/c/<id>)")
			fs.String("model", "", "model alias of the site, or its name in the site's picker (default: whatever is selected)")
			fs.String("effort", "", "reasoning-effort tier, on a site whose picker has tiers (chatgpt: instant, medium, high, extra-high, pro; deepseek: standard, deepthink; default: whatever is selected)")
			fs.String("prompt", "", "the task (instead of the positional argument)")
			fs.String("prompt-file", "", "read the task from this file")
			registerTemplateFlags(fs)
			fs.String("zip", "one", "delivery: one zip, or multi (one named zip per logical part)")
			fs.Bool("multi-zip", false, "same as --zip multi")
			fs.Bool("allow-inline", false, "when the answer has no zip, save its named code blocks as a zip")
			fs.String("contract", "code", "output contract: code, assess, plan, all or none")
			fs.Bool("architecture-authorized", false, "allow the plan and all contracts")
			fs.Bool("goal-lock", false, "add the GOAL LOCK preamble and reminder, with the task as the goal")
			fs.String("goal", "", "add the GOAL LOCK with this goal")
			fs.Bool("research", false, "add the research directive")
			registerSourceFlags(fs, service.SourceAsProvenance)
			registerFileFlags(fs)
			fs.String("out", "", "directory for the zips, sidecars and receipt (default: <data dir>/artifacts)")
			registerBrowserFlags(fs, browserflag.Launch)
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
	if inv.flag("files-report").(bool) {
		return filesReport(inv, req)
	}
	j, err := runJob(ctx, inv, req, "no verified result within --timeout "+inv.flag("timeout").(time.Duration).String())
	if err != nil {
		return err
	}
	var runErr error
	if j.Error != nil {
		runErr = j.Error
	}
	if j.Detail == nil || j.Detail.Receipt == nil {
		if runErr != nil {
			return runErr
		}
		return errs.New(errs.Internal, "code job %s ended %s without a receipt; is the owner an older Ferry?", j.ID, j.State)
	}
	return printCode(inv, j.Detail.Receipt, runErr)
}

// codeRequestOf reads and checks the flags of `ferry code` into the job
// they ask for (nothing is opened): the task or template, the target, the
// delivery and the contract; --out (default: the data directory's
// artifacts/) and --repo made absolute, as an owner runs elsewhere. The
// Service checks the rest before the browser is touched (the contract and
// its authorization, the conversation id, the site's sandbox, --repo with
// --source, the template). Errors: BadInput.
func codeRequestOf(inv *invocation) (service.JobRequest, error) {
	var none service.JobRequest
	task, tmpl, vars, err := promptOrTemplate(inv)
	if err != nil {
		return none, err
	}
	siteID, tabID, conv := inv.flag("site").(string), inv.flag("tab").(string), inv.flag("conv").(string)
	if siteID == "" && tabID == "" && conv == "" {
		return none, errs.New(errs.BadInput, "ferry code needs --site chatgpt, --tab TARGETID or --conv ID").WithHint("e.g. `ferry code --site chatgpt \"a CLI that greets\"`")
	}
	multi := inv.flag("multi-zip").(bool)
	switch z := inv.flag("zip").(string); z {
	case "one":
	case "multi":
		multi = true
	default:
		return none, errs.New(errs.BadInput, "--zip %q is neither one nor multi", z).WithHint("use --zip one (default) or --zip multi")
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return none, errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	paths, err := config.ResolvePaths(inv.dataDir)
	if err != nil {
		return none, err
	}
	out := inv.flag("out").(string)
	if out == "" {
		out = paths.ArtifactsDir()
	}
	if out, err = filepath.Abs(out); err != nil {
		return none, errs.Wrap(err, errs.BadInput, "resolve --out: %v", err)
	}
	b, err := browserRequestOf(inv)
	if err != nil {
		return none, err
	}
	req := service.JobRequest{Kind: service.KindCode, Prompt: task, Template: tmpl, Vars: vars, Site: siteID, Model: inv.flag("model").(string), Effort: inv.flag("effort").(string),
		TabID: tabID, Conversation: conv, MultiZip: multi, AllowInline: inv.flag("allow-inline").(bool),
		Contract: inv.flag("contract").(string), ArchitectureAuthorized: inv.flag("architecture-authorized").(bool),
		Goal: inv.flag("goal").(string), GoalLock: inv.flag("goal-lock").(bool), Research: inv.flag("research").(bool),
		OutDir: out, TimeoutSeconds: timeoutSeconds(timeout), Browser: b}
	if err := withSources(inv, &req); err != nil {
		return none, err
	}
	if err := withFiles(inv, &req); err != nil {
		return none, err
	}
	return req, inFlags(req.Validate())
}

// printCode prints a code run's receipt (with --json) or its zips in words,
// and returns runErr (already printed with --json).
func printCode(inv *invocation, rc *service.CodeReceipt, runErr error) error {
	if inv.json {
		if err := inv.printJSON(rc); err != nil {
			return err
		}
		if runErr != nil {
			return errReported{runErr}
		}
		return nil
	}
	termtext.Zips(inv.stdout, inv.stderr, rc.Zips, rc.Warnings, rc.Path)
	return runErr
}
