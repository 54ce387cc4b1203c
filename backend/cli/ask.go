package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Stdin is where `ferry ask -` reads the prompt.
var Stdin io.Reader = os.Stdin

// maxPrompt bounds a prompt read from stdin or a file: far above what a
// composer takes, low enough that a wrong file fails fast.
const maxPrompt = 4 << 20

func init() {
	register(&command{
		name:  "ask",
		args:  "(--site SITE [--new-chat] | --tab TARGETID | --session RUN | --conv URL) [--model M] [--tool T [--confirm-plan]] [--timeout D] [--file PATH ...] [--repo DIR --source PATH ...] (PROMPT | --prompt TEXT | --prompt-file FILE | - | --template NAME [--var K=V ...])",
		short: "send a prompt to a chat site in the browser and print the answer",
		long: `Types PROMPT into the site's tab, sends it once, waits for the complete answer and
prints it as Markdown. --template NAME renders a built-in or saved template (see
ferry templates) with one --var NAME=VALUE per variable as the prompt. The browser is Ferry's own (its profile lives in the data
directory, where you log in once), or the one at --browser-url: a ws://127.0.0.1
DevTools address, or the path of a profile's DevToolsActivePort file; --browser
attach without it uses Ferry's own running browser.

The tab: --tab TARGETID uses exactly that tab (never another); otherwise the one
open tab of --site, or a new tab when there is none. Several open tabs of the
site fail with tab_ambiguous listing their ids; --new-chat opens a fresh tab of the
site instead, whatever is open.

Follow-ups: --session RUN continues the conversation of that run (an id or an
unambiguous prefix, see ferry sessions list): the same site and conversation, in
the tab that shows it, else in a new background tab opened on it (routing says
which: tab_was_created). The new run records RUN as its parent, and ferry
sessions show lists the thread of runs. --conv URL does the same for a
conversation Ferry did not start (its address as the browser shows it). A
conversation at its maximum length gets a new chat, as below.

Attachments: --file PATH attaches a file (repeatable; a directory gives its
files, a glob its matches, !PATTERN excludes). The site must take files
(chatgpt, claude, gemini); its limits (count, size) are checked before the
browser is touched. Each file is attached the way the site takes it and must
show in the composer by its name and ready before the prompt is typed: a file
the site refuses ends the run with attachment_rejected, one that never shows
with attachment_unconfirmed; nothing is sent in either case. Two files with
the same base name are both sent, renamed visibly (a/util.go -> a__util.go),
and the prompt says so. --files-report prints what would be sent and sends
nothing; --inline-files pastes text files into the prompt as one fenced,
line-numbered bundle instead (refused above the site's prompt limit). --repo DIR
--source PATH (repeatable) attaches one zip of the tracked files under the paths
at HEAD (--source-as zip, the default here): every path must be tracked and clean
(an untracked or modified file is refused, named, before anything is sent); the
zip is made in a private temporary directory, attached like --file (the site's
limits apply), recorded with its sha256 and removed after the run. Progress (the answer as it grows) goes to stderr
when stderr is a terminal; stdout gets only the answer.

Every run is recorded as a session (see ferry sessions): its state is journaled
before each step, so a run interrupted after the send is collected by
ferry reattach --session ID without sending the prompt again.

Interstitials: a "Too many requests" refusal is answered ("Got it"), waited out for
--cooldown (default: the settings' run.rateLimitCooldown, else 5m) and the prompt
is sent once more on the same tab; a conversation at its maximum length gets a new
chat and the prompt once more. Each is recorded in the result (policies, warnings);
a second refusal ends the run (exit 3 for a rate limit). The same policy holds on
every site. A usage cap (the plan's limit, "You’ve hit your limit…", Claude's
exceeded_limit) is not a rate limit: seen on the page before typing, or as the
answer after the send, it ends the run at once with usage_cap (exit 3) and the reset
time when the site gives one (evidence resets_at); it is never cooled down and resent.
A page with a login wall and no usable composer is login_required (exit 3) before
anything is typed.

With --json the result is one object: session (the run's id), answer, codeBlocks, model (the slug and
where it was read), routing (requested and controlled tab, tab_was_created),
transport (stream or DOM and why the turn counts as complete), content (sha256,
length), timings, warnings and policies (the interstitial policies applied). Exit codes: 0 ok, 2 bad input, 3 blocked before send (login,
Cloudflare, rate limit, capability), 4 routing, 5 the answer failed, 6 timeout,
9 disk full (before the send: nothing was sent; after it: the answer is printed
and the error says it could not be journaled).`,
		flags: func(fs *flag.FlagSet) {
			fs.String("site", "", "site id (chatgpt, deepseek, ...; see the site registry)")
			fs.String("tab", "", "CDP TargetID of the tab to use (exactly that tab)")
			fs.String("model", "", "model alias of the site, or its name in the site's picker (default: whatever is selected)")
			fs.String("effort", "", "reasoning-effort tier, on a site whose picker has tiers (chatgpt: instant, medium, high, extra-high, pro; deepseek: standard, deepthink; default: whatever is selected)")
			fs.String("tool", "", "a tool of the site's composer to switch on for the prompt, proven by its pill before the send (chatgpt: web-search, deep-research, image; needs --site)")
			fs.Bool("temporary", false, "ask in the site's temporary chat, which it keeps no history of (chatgpt; a new chat: needs --site); Ferry's record is the only copy")
			fs.String("project", "", "open the new chat in this ChatGPT project: its address or its name (needs --site)")
			fs.String("gpt", "", "open the new chat in this custom GPT: its address https://chatgpt.com/g/g-… (needs --site)")
			fs.Bool("archive-after", false, "archive the conversation on the site once the answer is safe in Ferry's history (chatgpt)")
			fs.String("prompt", "", "the prompt (instead of the positional argument)")
			fs.String("prompt-file", "", "read the prompt from this file")
			registerTemplateFlags(fs)
			fs.Bool("new-chat", false, "ask in a fresh chat: a new tab of --site, whatever tabs of it are open")
			fs.String("session", "", "follow up that run: continue its conversation (an id or an unambiguous prefix)")
			fs.String("conv", "", "continue the conversation at this address (one Ferry did not start)")
			registerFileFlags(fs)
			registerSourceFlags(fs, service.SourceAsZip)
			registerBrowserFlags(fs, browserflag.Launch)
			fs.Duration("timeout", 0, "give up after this long (default 20m; 45m with --tool deep-research)")
			fs.Bool("confirm-plan", false, "with --tool deep-research: start the research plan at once instead of after its countdown")
			fs.Duration("cooldown", 0, "after a rate limit, wait this long before the one retry (1s to 1h; default: settings run.rateLimitCooldown, else 5m)")
		},
		run: runAsk,
	})
}

func runAsk(ctx context.Context, inv *invocation) error {
	req, err := askRequestOf(inv)
	if err != nil {
		return err
	}
	if inv.flag("files-report").(bool) {
		return filesReport(inv, req)
	}
	j, err := runJob(ctx, inv, req, fmt.Sprintf("no complete answer within %s", req.RunTimeout()))
	if err != nil {
		return err
	}
	run, err := jobRun(j)
	if err != nil {
		return answerUnjournaled(inv, j, err)
	}
	if inv.json {
		return inv.printJSON(askJSON{Session: run.ID, Result: run.Result(), Policies: run.Policies()})
	}
	res := run.Result()
	if run.Answer != "" || len(res.Images) == 0 {
		if _, err := fmt.Fprintln(inv.stdout, safetext.Block(run.Answer)); err != nil {
			return err
		}
	}
	return termtext.Images(inv.stdout, res.Images)
}

// answerUnjournaled prints the answer of a run that came after the send
// while the disk was full, before its errs.DiskFull (which says that the
// answer could not be journaled, and sets the exit code): an answer the
// site gave is never withheld. With --json the answer's object carries the
// error. Any other err is returned as is.
func answerUnjournaled(inv *invocation, j service.Job, err error) error {
	if !errs.Has(err, errs.DiskFull) || j.Detail == nil || j.Detail.Run == nil || j.Detail.Run.Answer == "" {
		return err
	}
	run := j.Detail.Run
	if inv.json {
		if perr := inv.printJSON(askJSON{Session: run.ID, Result: run.Result(), Policies: run.Policies(), Error: errs.From(err)}); perr != nil {
			return perr
		}
		return errReported{err}
	}
	if _, perr := fmt.Fprintln(inv.stdout, run.Answer); perr != nil {
		return perr
	}
	return err
}

// askJSON is what `ferry ask --json` prints: the answer with its proof, and
// the id of the session that recorded the run.
type askJSON struct {
	Session string `json:"session"`
	record.Result
	// Policies are the interstitial policies the run applied (the
	// session's policy receipts: kind, trigger, action, cooldown_ms,
	// retry_of, ...), in order; empty when the site never interfered.
	Policies []map[string]string `json:"policies"`
	// Error is set when the answer came but could not be journaled
	// (disk_full); the exit code is then disk full's.
	Error *errs.Envelope `json:"error,omitempty"`
}

// askPrompt takes the prompt from --prompt, --prompt-file, "-" (stdin) or the
// positional words, exactly one of them.
func askPrompt(inv *invocation) (string, error) {
	flagPrompt, file := inv.flag("prompt").(string), inv.flag("prompt-file").(string)
	sources := 0
	for _, set := range []bool{flagPrompt != "", file != "", len(inv.args) > 0} {
		if set {
			sources++
		}
	}
	if sources != 1 {
		return "", errs.New(errs.BadInput, "give the prompt exactly once: as an argument, with --prompt, with --prompt-file, or - for stdin").
			WithHint("e.g. `ferry ask --site chatgpt \"hello\"` or `echo hello | ferry ask --site chatgpt -`")
	}
	var text string
	switch {
	case flagPrompt != "":
		text = flagPrompt
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return "", errs.Wrap(err, errs.BadInput, "read the prompt file %s: %v", file, err)
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, maxPrompt+1))
		if err != nil {
			return "", errs.Wrap(err, errs.BadInput, "read the prompt file %s: %v", file, err)
		}
		text = string(b)
	case len(inv.args) == 1 && inv.args[0] == "-":
		b, err := io.ReadAll(io.LimitReader(Stdin, maxPrompt+1))
		if err != nil {
			return "", errs.Wrap(err, errs.BadInput, "read the prompt from stdin: %v", err)
		}
		text = string(b)
	default:
		text = strings.Join(inv.args, " ")
	}
	if len(text) > maxPrompt {
		return "", errs.New(errs.PromptTooLarge, "the prompt is over %d MiB", maxPrompt>>20)
	}
	if strings.TrimSpace(text) == "" {
		return "", errs.New(errs.BadInput, "the prompt is empty")
	}
	return text, nil
}

// isTerminal reports whether w is a terminal that takes the escapes of a
// progress line (on Windows a console in virtual-terminal mode, which it
// turns on: safetext.Escapes).
func isTerminal(w io.Writer) bool { return safetext.Escapes(w) }

// askRequestOf reads ask's flags into the job they ask for, checked
// before anything is opened by the request's Validate (no site, tab, run
// or conversation; --new-chat without a site or with a tab; --session or
// --conv with a tab or --new-chat; a --cooldown outside 1 s to 1 h), said
// in the flags' words. Errors: BadInput for those, a timeout that is not
// positive, a cooldown that is not whole seconds, browser flags that
// contradict each other, the prompt's and template's own input errors.
func askRequestOf(inv *invocation) (service.JobRequest, error) {
	var none service.JobRequest
	prompt, tmpl, vars, err := promptOrTemplate(inv)
	if err != nil {
		return none, err
	}
	siteID, tabID, newChat := inv.flag("site").(string), inv.flag("tab").(string), inv.flag("new-chat").(bool)
	follow, conv := strings.TrimSpace(inv.flag("session").(string)), strings.TrimSpace(inv.flag("conv").(string))
	timeout, cooldown := inv.flag("timeout").(time.Duration), inv.flag("cooldown").(time.Duration)
	// The flags' combinations are the request's rules (its Validate,
	// said in the flags' words below); only what a flag's own type allows
	// is checked here: a duration of 0 is the default in the request.
	if timeout < 0 {
		return none, errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	if cooldown%time.Second != 0 {
		return none, errs.New(errs.BadInput, "--cooldown is whole seconds, got %s", cooldown).WithHint("e.g. --cooldown 90s")
	}
	b, err := browserRequestOf(inv)
	if err != nil {
		return none, err
	}
	req := service.JobRequest{Kind: service.KindAsk, Prompt: prompt, Template: tmpl, Vars: vars, Site: siteID, Model: inv.flag("model").(string), Effort: inv.flag("effort").(string),
		Tool: inv.flag("tool").(string), ConfirmPlan: inv.flag("confirm-plan").(bool), Temporary: inv.flag("temporary").(bool), ArchiveAfter: inv.flag("archive-after").(bool),
		Project: inv.flag("project").(string), GPT: inv.flag("gpt").(string), TabID: tabID, NewChat: newChat, SessionID: follow, Conversation: conv, TimeoutSeconds: timeoutSeconds(timeout), CooldownSeconds: int(cooldown / time.Second), Browser: b}
	if err := withSources(inv, &req); err != nil {
		return none, err
	}
	if err := withFiles(inv, &req); err != nil {
		return none, err
	}
	return req, inFlags(req.Validate())
}
