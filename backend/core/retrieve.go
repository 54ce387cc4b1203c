package core

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// retrieveRequest is one retrieval in this process: it needs no store,
// only the data directory's settings and a browser.
type retrieveRequest struct {
	// Conversation is the ChatGPT conversation id.
	Conversation string
	// TabID is exactly the tab to read through, or "" to find one.
	TabID string
	// OutDir receives the zips, sidecars and receipt; "" is the settings'
	// artifacts.outputDir, else the data directory's artifacts/.
	OutDir string
	// Timeout bounds the retrieval; it must be positive.
	Timeout time.Duration
	// OpenBrowser connects to the browser to read the conversation in
	// (launched on the data directory's profile, or attached).
	OpenBrowser func(ctx context.Context, paths config.Paths) (*browser.Browser, error)
}

// retrieveIn brings the verified zips of an existing conversation home,
// sending nothing (see codemode.Retrieve), in a tab leased in l, in the
// data directory of paths
// for the checked creq: its settings give the site overrides, the output
// directory and the caps. It returns the receipt written into the output
// directory (nil when the run failed before it began, or its receipt could
// not be written) and the run's error. Errors: the settings' envelopes
// (ConfigInvalid); BadInput for an output directory that cannot be
// created; codemode.Retrieve's.
func retrieveIn(ctx context.Context, l *tabs.Leases, paths config.Paths, req retrieveRequest, creq codemode.RetrieveRequest) (*codemode.RetrieveReceipt, error) {
	settings, err := config.Load(paths.SettingsFile())
	if err != nil {
		return nil, err
	}
	reg, err := SiteRegistry(settings)
	if err != nil {
		return nil, err
	}
	if creq.OutDir, err = codemode.OutDir(req.OutDir, settings, paths.ArtifactsDir()); err != nil {
		return nil, err
	}
	creq.Limits = settings.Artifacts
	t := runTabs{leases: l}
	if req.OpenBrowser != nil {
		t.open = func(ctx context.Context) (*browser.Browser, error) { return req.OpenBrowser(ctx, paths) }
	}
	return codemode.Retrieve(ctx, t, reg, creq)
}
