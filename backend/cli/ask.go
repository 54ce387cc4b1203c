package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	_ "github.com/ferrydesk/ferry/backend/provider/all" // every adapter
	"github.com/ferrydesk/ferry/backend/site"
)

// Stdin is where `ferry ask -` reads the prompt.
var Stdin io.Reader = os.Stdin

// maxPrompt bounds a prompt read from stdin or a file: far above what a
// composer takes, low enough that a wrong file fails fast.
const maxPrompt = 4 << 20

func init() {
	register(&command{
		name:  "ask",
		args:  "(--site SITE [--new-chat] | --tab TARGETID) [--model M] [--timeout D] (PROMPT | --prompt TEXT | --prompt-file FILE | - | --template NAME [--var K=V ...])",
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
site instead, whatever is open. Progress (the answer as it grows) goes to stderr
when stderr is a terminal; stdout gets only the answer.

Every run is recorded as a session (see ferry sessions): its state is journaled
before each step, so a run interrupted after the send is collected by
ferry reattach --session ID without sending the prompt again.

Interstitials: a "Too many requests" refusal is answered ("Got it"), waited out for
--cooldown (default: the settings' run.rateLimitCooldown, else 5m) and the prompt
is sent once more on the same tab; a conversation at its maximum length gets a new
chat and the prompt once more. Each is recorded in the result (policies, warnings);
a second refusal ends the run (exit 3 for a rate limit).

With --json the result is one object: session (the run's id), answer, codeBlocks, model (the slug and
where it was read), routing (requested and controlled tab, tab_was_created),
transport (stream or DOM and why the turn counts as complete), content (sha256,
length), timings, warnings and policies (the interstitial policies applied). Exit codes: 0 ok, 2 bad input, 3 blocked before send (login,
Cloudflare, rate limit, capability), 4 routing, 5 the answer failed, 6 timeout.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("site", "", "site id (chatgpt, deepseek, ...; see the site registry)")
			fs.String("tab", "", "CDP TargetID of the tab to use (exactly that tab)")
			fs.String("model", "", "model alias of the site (default: whatever is selected)")
			fs.String("prompt", "", "the prompt (instead of the positional argument)")
			fs.String("prompt-file", "", "read the prompt from this file")
			registerTemplateFlags(fs)
			fs.Bool("new-chat", false, "ask in a fresh chat: a new tab of --site, whatever tabs of it are open")
			registerBrowserFlags(fs, browserLaunch)
			fs.Duration("timeout", 20*time.Minute, "give up after this long")
			fs.Duration("cooldown", 0, "after a rate limit, wait this long before the one retry (1s to 1h; default: settings run.rateLimitCooldown, else 5m)")
		},
		run: runAsk,
	})
}

func runAsk(ctx context.Context, inv *invocation) error {
	in, err := askInputOf(inv)
	if err != nil {
		return err
	}
	prompt, tmpl, vars, siteID, tabID, newChat, timeout, cooldown := in.prompt, in.template, in.vars, in.site, in.tab, in.newChat, in.timeout, in.cooldown
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	bs, err := browserSpecOf(inv, paths, browserLaunch)
	if err != nil {
		return err
	}
	// Bad input fails before the store or the browser is touched.
	reg, err := siteRegistry(paths)
	if err != nil {
		return err
	}
	if siteID != "" {
		if _, err := reg.Get(siteID); err != nil {
			return err
		}
	}
	c, err := core.Open(ctx, core.Options{DataDir: inv.dataDir, Role: "cli"})
	if err != nil {
		return err
	}
	defer c.Close()
	if tmpl != "" {
		// A missing variable is bad input before the browser is touched.
		if _, err := c.RenderTemplate(ctx, tmpl, vars); err != nil {
			return err
		}
	}
	req := core.AskRequest{Site: siteID, Model: inv.flag("model").(string), Prompt: prompt, Template: tmpl, Vars: vars, TargetID: tabID, NewChat: newChat,
		Headless: bs.headless, Chromium: bs.chromium, BrowserArgs: bs.args, Timeout: timeout, RateLimitCooldown: cooldown, Origin: job.OriginCLI}
	if bs.attaching() {
		// Attach here, so that Ferry's own browser that is not running
		// fails with the same clear message as in the other commands.
		b, err := bs.open(ctx, paths)
		if err != nil {
			return err
		}
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			_ = b.Close(cctx)
		}()
		req.Browser = b
	}
	progress := isTerminal(inv.stderr) && !inv.json
	if progress {
		req.OnEvent = func(ev job.Event) {
			switch {
			case ev.Kind == job.EventState && ev.State == job.StateResolved:
				fmt.Fprintf(inv.stderr, "session %s\n", ev.Session)
			case ev.Kind == job.EventPartial:
				if ev.Partial.Rewritten {
					fmt.Fprint(inv.stderr, "\r\033[K")
				}
				fmt.Fprint(inv.stderr, ev.Partial.Added)
			}
		}
	}
	s, err := c.Ask(ctx, req)
	if progress {
		fmt.Fprintln(inv.stderr)
	}
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(askJSON{Session: s.ID, Result: core.ResultOf(s), Policies: policiesOf(s)})
	}
	_, err = fmt.Fprintln(inv.stdout, s.Answer)
	return err
}

// askJSON is what `ferry ask --json` prints: the answer with its proof, and
// the id of the session that recorded the run.
type askJSON struct {
	Session string `json:"session"`
	provider.Result
	// Policies are the interstitial policies the run applied (the
	// session's policy receipts: kind, trigger, action, cooldown_ms,
	// retry_of, ...), in order; empty when the site never interfered.
	Policies []map[string]string `json:"policies"`
}

// policiesOf returns the policy receipts of s.
func policiesOf(s *job.Session) []map[string]string {
	out := []map[string]string{}
	for _, r := range s.Receipts {
		if r.Layer == "policy" {
			out = append(out, r.Data)
		}
	}
	return out
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

// siteRegistry is the built-in sites with the user's overrides from settings.
func siteRegistry(paths config.Paths) (*site.Registry, error) {
	s, err := config.Load(paths.SettingsFile())
	if err != nil {
		return nil, err
	}
	return core.SiteRegistry(s)
}

// resolveTab finds the tab to drive (see core.ResolveTab).
func resolveTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, site.Site, bool, error) {
	return core.ResolveTab(ctx, b, reg, siteID, tabID)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// askInput is what `ferry ask` was asked, checked the same way embedded
// and through an owner.
type askInput struct {
	prompt, template string
	vars             map[string]string
	site, tab        string
	newChat          bool
	timeout          time.Duration
	cooldown         time.Duration // 0: the settings' run.rateLimitCooldown
}

// askInputOf reads and checks ask's flags before anything is opened.
// Errors: BadInput for no site and no tab, --new-chat without a site or
// with a tab, a timeout that is not positive, a --cooldown outside 1 s to
// 1 h, and the prompt's and template's own input errors.
func askInputOf(inv *invocation) (askInput, error) {
	prompt, tmpl, vars, err := promptOrTemplate(inv)
	if err != nil {
		return askInput{}, err
	}
	in := askInput{prompt: prompt, template: tmpl, vars: vars, site: inv.flag("site").(string), tab: inv.flag("tab").(string),
		newChat: inv.flag("new-chat").(bool), timeout: inv.flag("timeout").(time.Duration), cooldown: inv.flag("cooldown").(time.Duration)}
	switch {
	case in.site == "" && in.tab == "":
		return askInput{}, errs.New(errs.BadInput, "ferry ask needs --site SITE or --tab TARGETID").WithHint("e.g. `ferry ask --site chatgpt \"hello\"`; `ferry help ask` for more")
	case in.newChat && (in.site == "" || in.tab != ""):
		return askInput{}, errs.New(errs.BadInput, "--new-chat needs --site and no --tab: a new chat opens its own tab").
			WithHint("e.g. `ferry ask --site chatgpt --new-chat \"hello\"`")
	case in.timeout <= 0:
		return askInput{}, errs.New(errs.BadInput, "--timeout must be positive, got %s", in.timeout)
	case in.cooldown != 0 && (in.cooldown < config.MinRateLimitCooldown || in.cooldown > config.MaxRateLimitCooldown):
		return askInput{}, errs.New(errs.BadInput, "--cooldown must be between %s and %s, got %s", config.MinRateLimitCooldown, config.MaxRateLimitCooldown, in.cooldown).
			WithHint("e.g. --cooldown 90s; leave it out for the settings' run.rateLimitCooldown (default 5m)")
	}
	return in, nil
}
