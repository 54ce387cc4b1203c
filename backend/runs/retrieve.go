package runs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/config"
)

// Retrieve brings the verified zips of an existing conversation home,
// sending nothing (see codemode.Retrieve), in a tab leased among the runs'
// tabs of the browser open connects to, for the checked req: the data
// directory's settings give the site overrides, the output directory
// (outDir, else the settings' artifacts.outputDir, else the data
// directory's artifacts/) and the caps. It returns the receipt written into
// the output directory (nil when the run failed before it began, or its
// receipt could not be written) and the run's error. Errors: the settings'
// envelopes (ConfigInvalid); BadInput for an output directory that cannot
// be created; codemode.Retrieve's.
func (p *Pipeline) Retrieve(ctx context.Context, req codemode.RetrieveRequest, outDir string, open func(ctx context.Context) (*browser.Browser, error)) (*codemode.RetrieveReceipt, error) {
	settings, err := config.Load(p.d.Paths.SettingsFile())
	if err != nil {
		return nil, err
	}
	reg, err := SiteRegistry(settings)
	if err != nil {
		return nil, err
	}
	if req.OutDir, err = codemode.OutDir(outDir, settings, p.d.Paths.ArtifactsDir()); err != nil {
		return nil, err
	}
	req.Limits = settings.Artifacts
	return codemode.Retrieve(ctx, runTabs{open: open, leases: p.d.Leases}, reg, req)
}
