package cli

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

// ownBrowserNamed reports whether the command names its browser itself
// (--browser-url, or --browser launch), so that it needs nothing of the
// owner's.
func ownBrowserNamed(inv *invocation) bool {
	if f := inv.fs.Lookup("browser-url"); f != nil && f.Value.String() != "" {
		return true
	}
	f := inv.fs.Lookup("browser")
	return f != nil && f.Value.String() != "" && f.Value.String() != browserAttach
}

// remoteRetrieve runs ferry retrieve in this process (it needs no store)
// but in the owner's browser, attached by its DevTools address, instead of
// launching a second browser on the profile the owner's browser holds: the
// same as `ferry retrieve --browser-url <the owner's browser>`. A command
// that names its browser or asks for a launch, and an owner without a
// long-lived browser, run embedded as they are.
func remoteRetrieve(ctx context.Context, inv *invocation, cl *client.Client) error {
	if ownBrowserNamed(inv) || launchOptionsGiven(inv) {
		return runRetrieve(ctx, inv)
	}
	info, err := cl.BrowserEndpoint(ctx)
	if errs.Has(err, errs.BrowserDisconnected) {
		return runRetrieve(ctx, inv)
	}
	if err != nil {
		return err
	}
	if err := inv.fs.Set("browser-url", info.URL); err != nil {
		return errs.Wrap(err, errs.Internal, "use the owner's browser: %v", err)
	}
	return runRetrieve(ctx, inv)
}

// launchOptionsGiven reports whether the command was given options that
// only a launched browser takes (--chromium, --headless, --browser-arg).
func launchOptionsGiven(inv *invocation) bool {
	for _, name := range []string{"chromium", "headless", "browser-arg"} {
		if f := inv.fs.Lookup(name); f != nil {
			if v := f.Value.String(); v != "" && v != "false" && v != "[]" {
				return true
			}
		}
	}
	return false
}
