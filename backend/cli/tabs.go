package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

func init() {
	register(&command{
		name:  "tabs",
		args:  "[--browser-url URL | --browser attach|launch]",
		short: "list the browser's tabs with their TargetIDs and sites",
		long: `Lists the tabs (page targets) of the browser: the TargetID to pass to --tab, the
site inferred from the tab's live address through the site registry (your custom
sites included), its title and its address. Addresses are shown without query,
fragment and userinfo, which may hold tokens. STATE is "login" for a tab on one
of the site's login pages; it is left empty otherwise (the page is not inspected).

The browser is Ferry's own running browser, or the one at --browser-url.`,
		flags: func(fs *flag.FlagSet) { registerBrowserFlags(fs, browserAttach) },
		run:   runTabs,
	})
	register(&command{
		name:  "open",
		args:  "SITE [--browser-url URL]",
		short: "open a site in a new background tab and print its TargetID",
		long: `Opens the site's new-chat address in a new background tab of the running browser
(never activating it), waits for the page to load and prints the tab's TargetID,
ready for ferry ask --tab. The browser is Ferry's own running browser, or the one
at --browser-url; a browser launched for this command alone would close with it,
so --browser launch is refused.`,
		flags: func(fs *flag.FlagSet) {
			registerBrowserFlags(fs, browserAttach)
			fs.Duration("timeout", time.Minute, "give up when the page has not loaded after this long")
		},
		run: runOpen,
	})
}

// tabJSON is one tab as `ferry tabs --json` prints it.
type tabJSON struct {
	ID    string `json:"id"`
	Site  string `json:"site"`
	State string `json:"state,omitempty"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// describeTab infers the site and state of a tab from its live address:
// the registry's site whose address holds it, else the one site whose
// login hosts do (the tab is then logged out, not lost).
func describeTab(reg *site.Registry, t browser.Target) tabJSON {
	out := tabJSON{ID: t.ID, Title: t.Title, URL: site.Redact(t.URL)}
	if s, ok := reg.ForURL(t.URL); ok {
		out.Site = s.ID
		if s.IsLoginURL(t.URL) {
			out.State = "login"
		}
		return out
	}
	var owners []string
	for _, s := range reg.Sites() {
		if s.IsLoginURL(t.URL) {
			owners = append(owners, s.ID)
		}
	}
	if len(owners) > 0 {
		out.State = "login"
	}
	if len(owners) == 1 {
		out.Site = owners[0]
	}
	return out
}

func runTabs(ctx context.Context, inv *invocation) error {
	if len(inv.args) > 0 {
		return errs.New(errs.BadInput, "ferry tabs takes no arguments, got %q", strings.Join(inv.args, " ")).WithHint("run `ferry help tabs`")
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	spec, err := browserSpecOf(inv, paths, browserAttach)
	if err != nil {
		return err
	}
	reg, err := siteRegistry(paths)
	if err != nil {
		return err
	}
	b, err := spec.open(ctx, paths)
	if err != nil {
		return err
	}
	defer closeBrowser(b)
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return err
	}
	return printTabs(inv, reg, targets)
}

// printTabs prints the tabs with the site and state inferred from their
// addresses (embedded or through the hub alike).
func printTabs(inv *invocation, reg *site.Registry, targets []browser.Target) error {
	tabs := make([]tabJSON, 0, len(targets))
	for _, t := range targets {
		tabs = append(tabs, describeTab(reg, t))
	}
	if inv.json {
		return inv.printJSON(tabs)
	}
	if len(tabs) == 0 {
		_, err := fmt.Fprintln(inv.stdout, "no open tabs")
		return err
	}
	w := tabwriter.NewWriter(inv.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TARGETID\tSITE\tSTATE\tTITLE\tURL")
	for _, t := range tabs {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", t.ID, dash(t.Site), dash(t.State), dash(printable(t.Title, 50)), t.URL)
	}
	return w.Flush()
}

// openJSON is what `ferry open --json` prints.
type openJSON struct {
	ID   string `json:"id"`
	Site string `json:"site"`
	URL  string `json:"url"`
}

func runOpen(ctx context.Context, inv *invocation) error {
	if len(inv.args) != 1 {
		return errs.New(errs.BadInput, "ferry open takes one site id, got %d arguments", len(inv.args)).
			WithHint("e.g. `ferry open deepseek`; the site ids are those of the site registry")
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	spec, err := browserSpecOf(inv, paths, browserAttach)
	if err != nil {
		return err
	}
	if !spec.attaching() {
		return errs.New(errs.BadInput, "ferry open needs a browser that stays open: a browser launched for the command would close with it").
			WithHint("start the Ferry app (its browser) or pass --browser-url; `ferry ask --site SITE` launches a browser for the run itself")
	}
	reg, err := siteRegistry(paths)
	if err != nil {
		return err
	}
	s, err := reg.Get(inv.args[0])
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	b, err := spec.open(ctx, paths)
	if err != nil {
		return err
	}
	defer closeBrowser(b)
	p, _, err := core.OpenSiteTab(ctx, b, reg, s.ID)
	if err != nil {
		return err
	}
	info, err := p.Info(ctx)
	if err != nil {
		return err
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer dcancel()
	_ = p.Detach(dctx)
	if inv.json {
		return inv.printJSON(openJSON{ID: p.ID(), Site: s.ID, URL: site.Redact(info.URL)})
	}
	_, err = fmt.Fprintln(inv.stdout, p.ID())
	return err
}

// closeBrowser ends the command's use of b: it disconnects from a browser
// it attached to (which stays open) and quits one it launched.
func closeBrowser(b *browser.Browser) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = b.Close(ctx)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// printable is s with control characters (a title can hold any) turned
// into spaces, cut to at most n runes.
func printable(s string, n int) string {
	r := []rune(strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return ' '
		}
		return c
	}, s))
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return string(r)
}
