// Package browserflag reads the browser flags of the CLI's commands
// (--browser, --browser-url, --chromium, --headless, --browser-arg) from
// their flag set into the service's terms, in one place: every
// contradiction between them is refused here, for the commands that launch
// by default (ask, code, retrieve) and those that attach (tabs, open, poll,
// watch, reattach, sessions doctor) alike. A command that does not define
// some of the flags reads their zero values.
package browserflag

import (
	"flag"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The values of --browser.
const (
	Launch = "launch" // start Ferry's own browser on its profile
	Attach = "attach" // connect to a running browser
)

// Spec reads and checks the browser flags of fs as a
// service.BrowserSpec: launch with its options; attach to --browser-url
// (a DevToolsActivePort path made absolute, for an owner in another
// working directory); or, attaching without --browser-url,
// service.BrowserOwn. defaultMode says what neither --browser nor
// --browser-url means. A command that does not define some of the flags
// gets their zero values. Errors: errs.BadInput for an unknown --browser,
// or flags that contradict each other (--browser launch with
// --browser-url; launch options when attaching).
func Spec(fs *flag.FlagSet, defaultMode string) (service.BrowserSpec, error) {
	str := func(name string) string {
		if f := fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	mode, u := str("browser"), str("browser-url")
	spec := service.BrowserSpec{Chromium: str("chromium"), Headless: str("headless") == "true"}
	if f := fs.Lookup("browser-arg"); f != nil {
		spec.Args = f.Value.(flag.Getter).Get().([]string)
	}
	switch mode {
	case "":
		mode = defaultMode
		if u != "" {
			mode = Attach
		}
	case Launch:
		if u != "" {
			return service.BrowserSpec{}, errs.New(errs.BadInput, "--browser launch and --browser-url contradict each other").
				WithHint("drop --browser-url to launch Ferry's browser, or drop --browser launch to attach to the one at that address")
		}
	case Attach:
	default:
		return service.BrowserSpec{}, errs.New(errs.BadInput, "--browser must be launch or attach, got %q", mode).
			WithHint("launch starts Ferry's own browser; attach connects to --browser-url or to Ferry's running browser")
	}
	if mode == Launch {
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
	abs, err := AbsURL(u)
	return service.BrowserSpec{Mode: service.BrowserAttach, URL: abs}, err
}

// Follow reads the browser flags of the commands that follow runs
// in flight (poll, watch, reattach, sessions doctor): named says a browser
// was named (--browser-url, or --browser attach for Ferry's own), url is
// --browser-url made absolute. Errors: errs.BadInput for --browser launch
// (a run in flight lives in the tabs of a running browser) and as Spec.
func Follow(fs *flag.FlagSet) (named bool, url string, err error) {
	if f := fs.Lookup("browser"); f != nil && f.Value.String() == Launch {
		return false, "", errs.New(errs.BadInput, "--browser launch cannot reach a run in flight: it lives in the tabs of a running browser").
			WithHint("pass --browser-url, or --browser attach for Ferry's own browser")
	}
	for _, name := range []string{"browser-url", "browser"} {
		if f := fs.Lookup(name); f != nil && f.Value.String() != "" {
			named = true
		}
	}
	if !named {
		return false, "", nil
	}
	spec, err := Spec(fs, Attach)
	return true, spec.URL, err
}

// AbsURL makes a DevToolsActivePort path absolute; addresses pass.
// Errors: errs.BadInput when the working directory cannot be read.
func AbsURL(u string) (string, error) {
	if u == "" || strings.Contains(u, "://") {
		return u, nil
	}
	abs, err := filepath.Abs(u)
	if err != nil {
		return "", errs.Wrap(err, errs.BadInput, "resolve --browser-url %s: %v", u, err)
	}
	return abs, nil
}

// Given reports whether fs gives a browser flag (--browser,
// --browser-url, --chromium, --headless, --browser-arg).
func Given(fs *flag.FlagSet) bool {
	for _, name := range []string{"browser", "browser-url", "chromium", "headless", "browser-arg"} {
		if f := fs.Lookup(name); f != nil {
			if v := f.Value.String(); v != "" && v != "false" && v != "[]" {
				return true
			}
		}
	}
	return false
}

// Relaunch is the launch spec the relaunch flags of fs give (nil when
// none is given). Errors: errs.BadInput when they come with a named browser
// (--browser-url, --browser attach): an attached browser is not launched.
func Relaunch(fs *flag.FlagSet, named bool) (*service.BrowserSpec, error) {
	spec := service.BrowserSpec{Mode: service.BrowserLaunch}
	given := false
	if f := fs.Lookup("chromium"); f != nil && f.Value.String() != "" {
		spec.Chromium, given = f.Value.String(), true
	}
	if f := fs.Lookup("headless"); f != nil && f.Value.String() == "true" {
		spec.Headless, given = true, true
	}
	if f := fs.Lookup("browser-arg"); f != nil {
		if args := f.Value.(flag.Getter).Get().([]string); len(args) > 0 {
			spec.Args, given = args, true
		}
	}
	if !given {
		return nil, nil
	}
	if named {
		return nil, errs.New(errs.BadInput, "--chromium, --headless and --browser-arg apply only when Ferry launches the browser, not when it attaches").
			WithHint("drop them, or drop --browser-url and --browser attach")
	}
	return &spec, nil
}
