package cli

import (
	"context"
	"flag"
	"os"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
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

// browserSpecOf reads and checks the browser flags of inv. A command that
// does not define some of them gets their zero values. Errors: BadInput for
// an unknown --browser, or flags that contradict each other (--browser
// launch with --browser-url; launch options when attaching).
func browserSpecOf(inv *invocation, paths config.Paths, defaultMode string) (browserSpec, error) {
	str := func(name string) string {
		if f := inv.fs.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	spec := browserSpec{mode: str("browser"), url: str("browser-url"), chromium: str("chromium"), headless: str("headless") == "true"}
	if f := inv.fs.Lookup("browser-arg"); f != nil {
		spec.args = f.Value.(flag.Getter).Get().([]string)
	}
	switch spec.mode {
	case "":
		spec.mode = defaultMode
		if spec.url != "" {
			spec.mode = browserAttach
		}
	case browserLaunch:
		if spec.url != "" {
			return browserSpec{}, errs.New(errs.BadInput, "--browser launch and --browser-url contradict each other").
				WithHint("drop --browser-url to launch Ferry's browser, or drop --browser launch to attach to the one at that address")
		}
	case browserAttach:
	default:
		return browserSpec{}, errs.New(errs.BadInput, "--browser must be launch or attach, got %q", spec.mode).
			WithHint("launch starts Ferry's own browser; attach connects to --browser-url or to Ferry's running browser")
	}
	if spec.mode == browserAttach {
		if spec.chromium != "" || spec.headless || len(spec.args) > 0 {
			return browserSpec{}, errs.New(errs.BadInput, "--chromium, --headless and --browser-arg apply only when Ferry launches the browser, not when it attaches").
				WithHint("drop them, or use --browser launch without --browser-url")
		}
		if spec.url == "" {
			spec.url, spec.own = paths.ProfileDir(), true
		}
	}
	return spec, nil
}

// attaching reports whether the command connects to a running browser
// rather than launching one.
func (s browserSpec) attaching() bool { return s.mode == browserAttach }

// open connects to the browser the spec names: it attaches, or launches
// Ferry's own browser on the data directory's profile. Errors: the
// browser's envelopes; BrowserDisconnected when attaching to Ferry's own
// browser while it does not run.
func (s browserSpec) open(ctx context.Context, paths config.Paths) (*browser.Browser, error) {
	if s.attaching() {
		if s.own {
			if _, err := os.Stat(filepath.Join(s.url, "DevToolsActivePort")); err != nil {
				return nil, errs.New(errs.BrowserDisconnected, "Ferry's browser is not running (its profile %s has no DevToolsActivePort)", s.url).
					WithHint("start the Ferry app (it runs the browser), pass --browser-url for a browser started with --remote-debugging-port, or use --browser launch")
			}
		}
		return browser.Attach(ctx, s.url)
	}
	if err := paths.EnsureDataDir(); err != nil {
		return nil, err
	}
	var opts []browser.Option
	if s.chromium != "" {
		opts = append(opts, browser.WithBinary(s.chromium))
	}
	if s.headless {
		opts = append(opts, browser.Headless())
	}
	if len(s.args) > 0 {
		opts = append(opts, browser.WithArgs(s.args...))
	}
	return browser.Launch(ctx, paths.ProfileDir(), opts...)
}

// openBrowser opens the browser of inv's flags for a command that launches
// by default (ask, code).
func openBrowser(ctx context.Context, inv *invocation, paths config.Paths) (*browser.Browser, error) {
	spec, err := browserSpecOf(inv, paths, browserLaunch)
	if err != nil {
		return nil, err
	}
	return spec.open(ctx, paths)
}

// registerAttachFlags defines --browser and --browser-url for the commands
// that follow runs in flight (poll, watch, reattach): those runs live in the
// tabs of a running browser, which a new launch would not have.
func registerAttachFlags(fs *flag.FlagSet) {
	fs.String("browser", "", "attach: use Ferry's own running browser (without --browser-url)")
	fs.String("browser-url", "", "the browser holding the run's tab: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
}

// wantsBrowser reports whether inv names a running browser to check runs
// in: --browser-url, or --browser attach.
func wantsBrowser(inv *invocation) bool {
	for _, name := range []string{"browser-url", "browser"} {
		if f := inv.fs.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	return false
}

// attach connects to the running browser of --browser-url, or of --browser
// attach (Ferry's own). Errors: BadInput when neither is given or --browser
// is not attach; the browser's envelopes.
func attach(ctx context.Context, inv *invocation) (*browser.Browser, error) {
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return nil, err
	}
	if f := inv.fs.Lookup("browser"); f != nil && f.Value.String() == browserLaunch {
		return nil, errs.New(errs.BadInput, "--browser launch cannot reach a run in flight: it lives in the tabs of a running browser").
			WithHint("pass --browser-url, or --browser attach for Ferry's own browser")
	}
	if !wantsBrowser(inv) {
		return nil, errs.New(errs.BadInput, "this needs the browser that holds the run's tab: pass --browser-url").
			WithHint("give the ws://127.0.0.1:PORT/devtools/browser/ID address or the profile's DevToolsActivePort file, or --browser attach for Ferry's own browser")
	}
	spec, err := browserSpecOf(inv, paths, browserAttach)
	if err != nil {
		return nil, err
	}
	return spec.open(ctx, paths)
}
