package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	register(&command{
		name:  "tabs",
		args:  "[--browser-url URL | --browser attach|launch] | show|close|login TARGETID",
		short: "list the browser's tabs with their TargetIDs and sites; show, close or log in on one",
		long: `Lists the tabs (page targets) of the browser: the TargetID to pass to --tab, the
site inferred from the tab's live address through the site registry (your custom
sites included), its title and its address. Addresses are shown without query,
fragment and userinfo, which may hold tokens. STATE is "login" for a tab on one
of the site's login pages; it is left empty otherwise (the page is not inspected).

The browser is Ferry's own running browser, or the one at --browser-url.

ferry tabs show ID brings the tab to the front and raises the browser's window;
ferry tabs close ID closes it; ferry tabs login ID shows it on its site's login
page, in front. They act on the browser of the running Ferry app or ferry serve.`,
		flags: func(fs *flag.FlagSet) { registerBrowserFlags(fs, browserflag.Attach) },
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
			registerBrowserFlags(fs, browserflag.Attach)
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

// runTabs lists the tabs of the browser the flags name: by default Ferry's
// own running browser (through an owner, its browser).
func runTabs(ctx context.Context, inv *invocation) error {
	if len(inv.args) == 2 && slices.Contains(service.TabActions, inv.args[0]) {
		return runTabAction(ctx, inv, inv.args[0], inv.args[1])
	}
	if len(inv.args) > 0 {
		return errs.New(errs.BadInput, "ferry tabs takes no arguments but show, close or login with a tab's id, got %q", strings.Join(inv.args, " ")).WithHint("run `ferry help tabs`")
	}
	spec, err := browserflag.Spec(inv.fs, browserflag.Attach)
	if err != nil {
		return err
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	list, err := svc.ListTabs(ctx, cliCaller, service.ListTabsRequest{Browser: &spec})
	if err != nil {
		return err
	}
	return printTabs(inv, list)
}

// runTabAction shows, closes or logs in on tab id of the owner's browser.
func runTabAction(ctx context.Context, inv *invocation, action, id string) error {
	if f := inv.fs.Lookup("browser-url"); f != nil && f.Value.String() != "" {
		return errs.New(errs.BadInput, "ferry tabs %s acts on the running Ferry's browser, not on --browser-url", action).
			WithHint("drop --browser-url")
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	res, err := svc.TabAction(ctx, cliCaller, service.TabActionRequest{TargetID: id, Action: action})
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(res)
	}
	return termtext.TabAction(inv.stdout, id, res)
}

// printTabs prints the tabs with the site and state inferred from their
// addresses.
func printTabs(inv *invocation, list []service.Tab) error {
	tabs := make([]tabJSON, 0, len(list))
	for _, t := range list {
		tabs = append(tabs, tabJSON{ID: t.TargetID, Site: t.Site, State: t.State, Title: t.Title, URL: t.URL})
	}
	if inv.json {
		return inv.printJSON(tabs)
	}
	return termtext.Tabs(inv.stdout, list)
}

// openJSON is what `ferry open --json` prints.
type openJSON struct {
	ID   string `json:"id"`
	Site string `json:"site"`
	URL  string `json:"url"`
}

// runOpen opens the site in a new background tab of the browser the flags
// name: by default Ferry's own running browser (through an owner, its
// browser).
func runOpen(ctx context.Context, inv *invocation) error {
	if len(inv.args) != 1 {
		return errs.New(errs.BadInput, "ferry open takes one site id, got %d arguments", len(inv.args)).
			WithHint("e.g. `ferry open deepseek`; the site ids are those of the site registry")
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	spec, err := browserflag.Spec(inv.fs, browserflag.Attach)
	if err != nil {
		return err
	}
	if spec.Mode == service.BrowserLaunch {
		return errs.New(errs.BadInput, "ferry open needs a browser that stays open: a browser launched for the command would close with it").
			WithHint("start the Ferry app (its browser) or pass --browser-url; `ferry ask --site SITE` launches a browser for the run itself")
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	tab, err := svc.OpenTab(ctx, cliCaller, service.OpenTabRequest{Site: inv.args[0], BrowserURL: spec.URL, TimeoutMs: timeout.Milliseconds()})
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(openJSON{ID: tab.TargetID, Site: tab.Site, URL: tab.URL})
	}
	_, err = fmt.Fprintln(inv.stdout, tab.TargetID)
	return err
}
