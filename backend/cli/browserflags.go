package cli

import (
	"flag"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The browser flags, shared by every command that drives the browser (ask,
// code, tabs, open, poll, watch, reattach), so that they read and behave
// the same everywhere.

// The values of --browser.
const (
	browserLaunch = "launch" // start Ferry's own browser on its profile
	browserAttach = "attach" // connect to a running browser
)

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
	mode     string // browserLaunch or browserAttach
	url      string // for attach: a ws:// address or a DevToolsActivePort path
	chromium string
	headless bool
	args     []string
	// own is true when url is Ferry's own profile (attach without
	// --browser-url): its absence means Ferry's browser is not running.
	own bool
}

// browserSpecOf reads and checks the browser flags of inv
// (browserSpecRequest), attaching without --browser-url to Ferry's own
// browser on the data directory's profile. Errors: as browserSpecRequest.
func browserSpecOf(inv *invocation, paths config.Paths, defaultMode string) (browserSpec, error) {
	req, err := browserSpecRequest(inv, defaultMode)
	if err != nil {
		return browserSpec{}, err
	}
	switch req.Mode {
	case service.BrowserLaunch:
		return browserSpec{mode: browserLaunch, chromium: req.Chromium, headless: req.Headless, args: req.Args}, nil
	case service.BrowserOwn:
		return browserSpec{mode: browserAttach, url: paths.ProfileDir(), own: true}, nil
	}
	return browserSpec{mode: browserAttach, url: req.URL}, nil
}

// attaching reports whether the command connects to a running browser
// rather than launching one.
func (s browserSpec) attaching() bool { return s.mode == browserAttach }

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

// relaunchSpec is the launch spec the relaunch flags of inv give (nil when
// none is given). Errors: errs.BadInput when they come with a named browser
// (--browser-url, --browser attach): an attached browser is not launched.
func relaunchSpec(inv *invocation, named bool) (*service.BrowserSpec, error) {
	spec := service.BrowserSpec{Mode: service.BrowserLaunch}
	given := false
	if f := inv.fs.Lookup("chromium"); f != nil && f.Value.String() != "" {
		spec.Chromium, given = f.Value.String(), true
	}
	if f := inv.fs.Lookup("headless"); f != nil && f.Value.String() == "true" {
		spec.Headless, given = true, true
	}
	if f := inv.fs.Lookup("browser-arg"); f != nil {
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
