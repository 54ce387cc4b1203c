package cli

import (
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// browserRequestOf is the browser inv's flags ask for, as a request
// carries it: nil when no browser flag was given (the implementation's
// default: the owner's browser, else Ferry's own, launched), else the
// checked spec (attaching without --browser-url names Ferry's own
// browser by its profile). Errors: browserSpecOf's BadInput for flags
// that contradict each other.
func browserRequestOf(inv *invocation) (*service.BrowserSpec, error) {
	paths, err := config.ResolvePaths(inv.dataDir)
	if err != nil {
		return nil, err
	}
	spec, err := browserSpecOf(inv, paths, browserLaunch)
	if err != nil {
		return nil, err
	}
	given := false
	for _, name := range []string{"browser", "browser-url", "chromium", "headless", "browser-arg"} {
		if f := inv.fs.Lookup(name); f != nil {
			if v := f.Value.String(); v != "" && v != "false" && v != "[]" {
				given = true
			}
		}
	}
	if !given {
		return nil, nil
	}
	if spec.url != "" && !strings.Contains(spec.url, "://") {
		// A DevToolsActivePort path: an owner resolves it elsewhere.
		if spec.url, err = filepath.Abs(spec.url); err != nil {
			return nil, errs.Wrap(err, errs.BadInput, "resolve --browser-url: %v", err)
		}
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
