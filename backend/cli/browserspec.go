package cli

import (
	"flag"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The browser flags read into the service's terms, in one place: every
// contradiction between them is refused here, for the commands that launch
// by default (ask, code, retrieve) and those that attach (tabs, open, poll,
// watch, reattach, sessions doctor) alike.

// browserSpecRequest reads and checks the browser flags of inv as a
// service.BrowserSpec: launch with its options; attach to --browser-url
// (a DevToolsActivePort path made absolute, for an owner in another
// working directory); or, attaching without --browser-url,
// service.BrowserOwn. defaultMode says what neither --browser nor
// --browser-url means. A command that does not define some of the flags
// gets their zero values. Errors: errs.BadInput for an unknown --browser,
// or flags that contradict each other (--browser launch with
// --browser-url; launch options when attaching).
func browserSpecRequest(inv *invocation, defaultMode string) (service.BrowserSpec, error) {
	str := func(name string) string {
		if f := inv.fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	mode, u := str("browser"), str("browser-url")
	spec := service.BrowserSpec{Chromium: str("chromium"), Headless: str("headless") == "true"}
	if f := inv.fs.Lookup("browser-arg"); f != nil {
		spec.Args = f.Value.(flag.Getter).Get().([]string)
	}
	switch mode {
	case "":
		mode = defaultMode
		if u != "" {
			mode = browserAttach
		}
	case browserLaunch:
		if u != "" {
			return service.BrowserSpec{}, errs.New(errs.BadInput, "--browser launch and --browser-url contradict each other").
				WithHint("drop --browser-url to launch Ferry's browser, or drop --browser launch to attach to the one at that address")
		}
	case browserAttach:
	default:
		return service.BrowserSpec{}, errs.New(errs.BadInput, "--browser must be launch or attach, got %q", mode).
			WithHint("launch starts Ferry's own browser; attach connects to --browser-url or to Ferry's running browser")
	}
	if mode == browserLaunch {
		spec.Mode = service.BrowserLaunch
		return spec, nil
	}
	if spec.Chromium != "" || spec.Headless || len(spec.Args) > 0 {
		return service.BrowserSpec{}, errs.New(errs.BadInput, "--chromium, --headless and --browser-arg apply only when Ferry launches the browser, not when it attaches").
			WithHint("drop them, or use --browser launch without --browser-url")
	}
	if u == "" {
		return service.BrowserSpec{Mode: service.BrowserOwn}, nil
	}
	abs, err := absBrowserURL(u)
	return service.BrowserSpec{Mode: service.BrowserAttach, URL: abs}, err
}

// followBrowser reads the browser flags of the commands that follow runs
// in flight (poll, watch, reattach, sessions doctor): named says a browser
// was named (--browser-url, or --browser attach for Ferry's own), url is
// --browser-url made absolute. Errors: errs.BadInput for --browser launch
// (a run in flight lives in the tabs of a running browser) and as
// browserSpecRequest.
func followBrowser(inv *invocation) (named bool, url string, err error) {
	if f := inv.fs.Lookup("browser"); f != nil && f.Value.String() == browserLaunch {
		return false, "", errs.New(errs.BadInput, "--browser launch cannot reach a run in flight: it lives in the tabs of a running browser").
			WithHint("pass --browser-url, or --browser attach for Ferry's own browser")
	}
	for _, name := range []string{"browser-url", "browser"} {
		if f := inv.fs.Lookup(name); f != nil && f.Value.String() != "" {
			named = true
		}
	}
	if !named {
		return false, "", nil
	}
	spec, err := browserSpecRequest(inv, browserAttach)
	return true, spec.URL, err
}

// absBrowserURL makes a DevToolsActivePort path absolute; addresses pass.
func absBrowserURL(u string) (string, error) {
	if u == "" || strings.Contains(u, "://") {
		return u, nil
	}
	abs, err := filepath.Abs(u)
	if err != nil {
		return "", errs.Wrap(err, errs.BadInput, "resolve --browser-url %s: %v", u, err)
	}
	return abs, nil
}

// browserRequestOf is the browser inv's flags ask for, as a job or
// retrieve request carries it: nil when no browser flag was given (the
// implementation's default: the owner's browser, else Ferry's own,
// launched), else the checked spec (attaching without --browser-url names
// Ferry's own browser by its profile). Errors: browserSpecRequest's
// BadInput for flags that contradict each other.
func browserRequestOf(inv *invocation) (*service.BrowserSpec, error) {
	paths, err := config.ResolvePaths(inv.dataDir)
	if err != nil {
		return nil, err
	}
	spec, err := browserSpecOf(inv, paths, browserLaunch)
	if err != nil {
		return nil, err
	}
	if !browserFlagGiven(inv) {
		return nil, nil
	}
	if spec.url, err = absBrowserURL(spec.url); err != nil {
		return nil, err
	}
	return &service.BrowserSpec{Mode: service.BrowserMode(spec.mode), URL: spec.url, Chromium: spec.chromium,
		Headless: spec.headless, Args: spec.args}, nil
}

// browserFlagGiven reports whether inv gives a browser flag (--browser,
// --browser-url, --chromium, --headless, --browser-arg).
func browserFlagGiven(inv *invocation) bool {
	for _, name := range []string{"browser", "browser-url", "chromium", "headless", "browser-arg"} {
		if f := inv.fs.Lookup(name); f != nil {
			if v := f.Value.String(); v != "" && v != "false" && v != "[]" {
				return true
			}
		}
	}
	return false
}

// launchOrURLGiven reports whether inv names a browser address or launch
// options an owner's run does not take (--browser-url, --chromium,
// --headless).
func launchOrURLGiven(inv *invocation) bool {
	return inv.flag("browser-url").(string) != "" || inv.flag("chromium").(string) != "" || inv.flag("headless").(bool)
}
