package cli

import (
	"context"
	"encoding/json"
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
		args:  "(--site SITE | --tab TARGETID) [--model M] [--timeout D] (PROMPT | --prompt-file FILE | -)",
		short: "send a prompt to a chat site in the browser and print the answer",
		long: `Types PROMPT into the site's tab, sends it once, waits for the complete answer and
prints it as Markdown. The browser is Ferry's own (its profile lives in the data
directory, where you log in once), or the one at --browser-url: a ws://127.0.0.1
DevTools address, or the path of a profile's DevToolsActivePort file.

The tab: --tab TARGETID uses exactly that tab (never another); otherwise the one
open tab of --site, or a new tab when there is none. Several open tabs of the
site fail with tab_ambiguous listing their ids.

With --json the result is one object: answer, codeBlocks, model (the slug and
where it was read), routing (requested and controlled tab, tab_was_created),
transport (stream or DOM and why the turn counts as complete), content (sha256,
length) and timings. Exit codes: 0 ok, 2 bad input, 3 blocked before send (login,
Cloudflare, rate limit, capability), 4 routing, 5 the answer failed, 6 timeout.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("site", "", "site id (chatgpt, deepseek, ...; see the site registry)")
			fs.String("tab", "", "CDP TargetID of the tab to use (exactly that tab)")
			fs.String("model", "", "model alias of the site (default: whatever is selected)")
			fs.String("prompt", "", "the prompt (instead of the positional argument)")
			fs.String("prompt-file", "", "read the prompt from this file")
			fs.String("browser-url", "", "attach to this browser: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
			fs.String("chromium", "", "Chromium or Chrome executable to launch (default: found in PATH)")
			fs.Bool("headless", false, "launch the browser without a window")
			fs.Duration("timeout", 20*time.Minute, "give up after this long")
		},
		run: runAsk,
	})
}

func runAsk(ctx context.Context, inv *invocation) error {
	prompt, err := askPrompt(inv)
	if err != nil {
		return err
	}
	siteID, tabID := inv.flag("site").(string), inv.flag("tab").(string)
	if siteID == "" && tabID == "" {
		return errs.New(errs.BadInput, "ferry ask needs --site SITE or --tab TARGETID").WithHint("e.g. `ferry ask --site chatgpt \"hello\"`; `ferry help ask` for more")
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	reg, err := siteRegistry(paths)
	if err != nil {
		return err
	}
	if siteID != "" {
		if _, err := reg.Get(siteID); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	b, err := openBrowser(ctx, inv, paths)
	if err != nil {
		return err
	}
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 15*time.Second)
		defer stop()
		_ = b.Close(c)
	}()
	page, s, created, err := resolveTab(ctx, b, reg, siteID, tabID)
	if err != nil {
		return err
	}
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = page.Detach(c)
	}()
	a, err := provider.New(provider.Env{Page: page, Site: s, Sites: reg})
	if err != nil {
		return err
	}
	req := provider.Request{Prompt: prompt, Model: inv.flag("model").(string), RequestedTab: tabID, TabWasCreated: created}
	if isTerminal(inv.stderr) && !inv.json {
		req.OnPartial = func(p provider.Partial) {
			if p.Rewritten {
				fmt.Fprint(inv.stderr, "\r\033[K")
			}
			fmt.Fprint(inv.stderr, p.Added)
		}
	}
	res, err := provider.Ask(ctx, a, req)
	if req.OnPartial != nil {
		fmt.Fprintln(inv.stderr)
	}
	if err != nil {
		if ctx.Err() != nil && errs.CodeOf(err) != errs.Timeout {
			return errs.Wrap(err, errs.Timeout, "no complete answer within --timeout %s", timeout)
		}
		return err
	}
	if inv.json {
		return inv.printJSON(res)
	}
	_, err = fmt.Fprintln(inv.stdout, res.Answer)
	return err
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

func openBrowser(ctx context.Context, inv *invocation, paths config.Paths) (*browser.Browser, error) {
	if u := inv.flag("browser-url").(string); u != "" {
		return browser.Attach(ctx, u)
	}
	if err := paths.EnsureDataDir(); err != nil {
		return nil, err
	}
	var opts []browser.Option
	if bin := inv.flag("chromium").(string); bin != "" {
		opts = append(opts, browser.WithBinary(bin))
	}
	if inv.flag("headless").(bool) {
		opts = append(opts, browser.Headless())
	}
	return browser.Launch(ctx, paths.ProfileDir(), opts...)
}

// resolveTab finds the tab to drive: exactly tabID when given; else the one
// open tab of siteID, or a new one. created reports a new tab.
func resolveTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, site.Site, bool, error) {
	if tabID != "" {
		p, err := b.Page(ctx, tabID)
		if err != nil {
			return nil, site.Site{}, false, err
		}
		info, err := p.Info(ctx)
		if err != nil {
			return nil, site.Site{}, false, err
		}
		s, ok := reg.ForURL(info.URL)
		switch {
		case siteID != "" && (!ok || !strings.EqualFold(s.ID, siteID)):
			// A tab on the site's login page, say: the adapter reports it.
			want, err := reg.Get(siteID)
			if err != nil {
				return nil, site.Site{}, false, err
			}
			if ok {
				return nil, site.Site{}, false, errs.New(errs.BadInput, "tab %s shows %s, not %s", tabID, s.Name, want.Name).
					WithEvidence("tab", tabID).WithEvidence("url", site.Redact(info.URL))
			}
			return p, want, false, nil
		case !ok:
			return nil, site.Site{}, false, errs.New(errs.NavigatedAway, "tab %s is not on a known chat site", tabID).
				WithEvidence("tab", tabID).WithEvidence("url", site.Redact(info.URL)).
				WithHint("bring the tab back to its site, or pass --site to say which site it belongs to")
		}
		return p, s, false, nil
	}
	s, err := reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	targets, err := b.Targets(ctx, func(host string) string {
		if hs, ok := reg.ForHost(host); ok {
			return hs.ID
		}
		return ""
	})
	if err != nil {
		return nil, site.Site{}, false, err
	}
	var mine []browser.Target
	for _, t := range targets {
		if t.Site == s.ID && s.Allows(t.URL) {
			mine = append(mine, t)
		}
	}
	switch len(mine) {
	case 0:
		p, err := b.OpenTab(ctx, "about:blank")
		if err != nil {
			return nil, site.Site{}, false, err
		}
		start := s.NewChat
		if start == "" {
			start = s.Address
		}
		if err := p.Navigate(ctx, start); err != nil {
			return nil, site.Site{}, false, err
		}
		return p, s, true, nil
	case 1:
		p, err := b.Page(ctx, mine[0].ID)
		return p, s, false, err
	}
	var list []string
	for _, t := range mine {
		list = append(list, t.ID+" "+site.Redact(t.URL))
	}
	return nil, site.Site{}, false, errs.New(errs.TabAmbiguous, "%d %s tabs are open", len(mine), s.Name).
		WithEvidence("tabs", strings.Join(list, "; "))
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
