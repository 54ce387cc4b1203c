package cli

import (
	"flag"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The browser flags, shared by every command that drives the browser (ask,
// code, tabs, open, poll, watch, reattach), so that they read and behave
// the same everywhere. Package browserflag reads them into the service's
// terms.

// registerBrowserFlags defines --browser, --browser-url, --chromium,
// --headless and --browser-arg on fs. defaultMode says what the command
// does when neither --browser nor --browser-url is given.
func registerBrowserFlags(fs *flag.FlagSet, defaultMode string) {
	fs.String("browser", "", "launch Ferry's own browser, or attach to a running one (to --browser-url, else to Ferry's browser) (default: "+defaultMode+"; attach when --browser-url is given)")
	fs.String("browser-url", "", "attach to this browser: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
	fs.String("chromium", "", "Chromium or Chrome executable to launch (default: found in PATH)")
	fs.Bool("headless", false, "launch the browser without a window")
	fs.Var(&stringList{}, "browser-arg", "an extra command-line argument for a launched browser (repeatable)")
}

// carryGlobalBrowserFlags moves the browser flags given before the command
// name (`ferry --headless ask …`) onto the command's own flag set, so they
// behave as if given after it; a flag given after the name still wins. A
// browser flag the command does not take is the same BadInput as when it
// follows the name.
func carryGlobalBrowserFlags(root, cmdFlags *flag.FlagSet, name string) error {
	var err error
	root.Visit(func(f *flag.Flag) {
		if err != nil || f.Name == "data-dir" || f.Name == "json" {
			return
		}
		if cmdFlags.Lookup(f.Name) == nil {
			err = errs.New(errs.BadInput, "ferry %s does not take --%s", name, f.Name).
				WithHint("run `ferry help %s` for its flags", name)
			return
		}
		values := []string{f.Value.String()}
		if list, ok := f.Value.(*stringList); ok {
			values = *list
		}
		for _, v := range values {
			if err = cmdFlags.Set(f.Name, v); err != nil {
				err = errs.New(errs.BadInput, "ferry %s: --%s: %v", name, f.Name, err)
				return
			}
		}
	})
	return err
}

// browserSpec is the browser a command should use, from its flags.
type browserSpec struct {
	mode     string // browserflag.Launch or browserflag.Attach
	url      string // for attach: a ws:// address or a DevToolsActivePort path
	chromium string
	headless bool
	args     []string
	// own is true when url is Ferry's own profile (attach without
	// --browser-url): its absence means Ferry's browser is not running.
	own bool
}

// browserSpecOf reads and checks the browser flags of inv
// (browserflag.Spec), attaching without --browser-url to Ferry's own
// browser on the data directory's profile. Errors: as browserflag.Spec.
func browserSpecOf(inv *invocation, paths config.Paths, defaultMode string) (browserSpec, error) {
	req, err := browserflag.Spec(inv.fs, defaultMode)
	if err != nil {
		return browserSpec{}, err
	}
	switch req.Mode {
	case service.BrowserLaunch:
		return browserSpec{mode: browserflag.Launch, chromium: req.Chromium, headless: req.Headless, args: req.Args}, nil
	case service.BrowserOwn:
		return browserSpec{mode: browserflag.Attach, url: paths.ProfileDir(), own: true}, nil
	}
	return browserSpec{mode: browserflag.Attach, url: req.URL}, nil
}

// attaching reports whether the command connects to a running browser
// rather than launching one.
func (s browserSpec) attaching() bool { return s.mode == browserflag.Attach }

// registerAttachFlags defines --browser and --browser-url for the commands
// that follow runs in flight (poll, watch, reattach): those runs live in the
// tabs of a running browser, which a new launch would not have.
func registerAttachFlags(fs *flag.FlagSet) {
	fs.String("browser", "", "attach: use Ferry's own running browser (without --browser-url)")
	fs.String("browser-url", "", "the browser holding the run's tab: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
}

// registerRelaunchFlags defines --chromium, --headless and --browser-arg for
// the commands that resume a run (watch, reattach): they apply only when
// the run lost its browser and Ferry launches its own to collect it.
func registerRelaunchFlags(fs *flag.FlagSet) {
	fs.String("chromium", "", "Chromium or Chrome executable to launch when the run lost its browser (default: found in PATH)")
	fs.Bool("headless", false, "launch that browser without a window")
	fs.Var(&stringList{}, "browser-arg", "an extra command-line argument for that browser (repeatable)")
}

// browserRequestOf is the browser inv's flags ask for, as a job or
// retrieve request carries it: nil when no browser flag was given (the
// implementation's default: the owner's browser, else Ferry's own,
// launched), else the checked spec (attaching without --browser-url names
// Ferry's own browser by its profile). Errors: browserflag.Spec's
// BadInput for flags that contradict each other.
func browserRequestOf(inv *invocation) (*service.BrowserSpec, error) {
	paths, err := config.ResolvePaths(inv.dataDir)
	if err != nil {
		return nil, err
	}
	spec, err := browserSpecOf(inv, paths, browserflag.Launch)
	if err != nil {
		return nil, err
	}
	if !browserflag.Given(inv.fs) {
		return nil, nil
	}
	if spec.url, err = browserflag.AbsURL(spec.url); err != nil {
		return nil, err
	}
	return &service.BrowserSpec{Mode: service.BrowserMode(spec.mode), URL: spec.url, Chromium: spec.chromium,
		Headless: spec.headless, Args: spec.args}, nil
}

// launchOrURLGiven reports whether inv names a browser address or launch
// options an owner's run does not take (--browser-url, --chromium,
// --headless).
func launchOrURLGiven(inv *invocation) bool {
	return inv.flag("browser-url").(string) != "" || inv.flag("chromium").(string) != "" || inv.flag("headless").(bool)
}
