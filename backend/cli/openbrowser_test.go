package cli

import (
	"context"
	"os"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

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
	var opts []launch.Option
	if s.chromium != "" {
		opts = append(opts, launch.WithBinary(s.chromium))
	}
	if s.headless {
		opts = append(opts, launch.Headless())
	}
	if len(s.args) > 0 {
		opts = append(opts, launch.WithArgs(s.args...))
	}
	return browser.Launch(ctx, paths.ProfileDir(), opts...)
}

// openBrowser opens the browser of inv's flags for a command that launches
// by default (ask, code).
func openBrowser(ctx context.Context, inv *invocation, paths config.Paths) (*browser.Browser, error) {
	spec, err := browserSpecOf(inv, paths, browserflag.Launch)
	if err != nil {
		return nil, err
	}
	return spec.open(ctx, paths)
}
