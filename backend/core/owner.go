package core

import (
	"context"
	"errors"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/jobs"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Owner is this process holding a data directory's jobs: the core, the
// runner of its jobs and the one Service over both, which every face of
// the process uses and the local gateway serves once started (Serve). The
// desktop app, `ferry serve`, `ferry mcp` without a running owner and the
// CLI's in-process commands all start one with StartOwner.
type Owner struct {
	Core    *Core
	Service *Service

	run  *jobs.Runner
	stop func(context.Context) error // the gateway's; nil when none serves
}

// OwnerOptions say where an owner's jobs find a browser.
type OwnerOptions struct {
	// Browser runs every job in this browser and lists its tabs (an
	// attached --browser-url; the simulator's in tests). The owner never
	// closes it.
	Browser *browser.Browser
	// OwnerBrowser is the desktop's long-lived browser: each job asks it
	// for its browser (launched minimized, connected on first need), and
	// the Service's browser operations use it. The owner never closes it.
	OwnerBrowser *ownerbrowser.Browser
	// Defaults say how runs find a browser when neither is given: their
	// BrowserURL, Headless, Chromium, BrowserArgs and Timeout (the other
	// fields are ignored).
	Defaults runs.AskRequest
	// Gateway says a local gateway is meant to serve the Service (the
	// window's): until Serve succeeds, pairing says the gateway is not
	// running in this window rather than that no owner runs.
	Gateway bool
}

// StartOwner starts the runner of c's jobs and the Service over both. Jobs
// that were awaiting approval when an earlier owner stopped wait again.
func StartOwner(c *Core, opts OwnerOptions) *Owner {
	jo := jobs.Options{Browser: opts.Browser, Defaults: opts.Defaults}
	if opts.OwnerBrowser != nil {
		jo.Source = opts.OwnerBrowser.GetInBackground
	}
	run := jobs.New(c.runsDeps(), jo)
	o := &Owner{Core: c, Service: newService(c, run, opts.OwnerBrowser), run: run}
	if opts.Gateway {
		o.Service.gateway.set(gatewayDown)
	}
	return o
}

// GatewayStart starts a local gateway in front of svc and returns how to
// stop it (package hub's Start is one).
type GatewayStart func(ctx context.Context, svc service.Gateway) (stop func(context.Context) error, err error)

// Serve starts the local gateway in front of the Service with start; from
// then on the pairing codes the Service draws can be redeemed. Errors:
// start's (nothing serves then).
func (o *Owner) Serve(ctx context.Context, start GatewayStart) error {
	stop, err := start(ctx, o.Service)
	if err != nil {
		return err
	}
	o.stop = stop
	o.Service.gateway.set(gatewayUp)
	return nil
}

// Stop stops the gateway (removing its hub file), then cancels the
// running jobs and waits for them to journal their end, at most until ctx
// ends. The core stays open: its owner closes it after whatever else uses
// it (the browser). Errors: the gateway's and the jobs' (errs.Timeout).
func (o *Owner) Stop(ctx context.Context) error {
	var gerr error
	if o.stop != nil {
		gerr = o.stop(ctx)
		o.stop = nil
	}
	return errors.Join(gerr, o.run.Close(ctx))
}
