package jobs

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

// The tabs of a browser a request names (`ferry tabs`, through an owner or
// in-process alike): the browser flags' choice as a service.BrowserSpec,
// honoured as the CLI's browser flags describe it.

// specBrowser connects to the browser spec names: BrowserOwn is the
// owner's long-lived browser, else Ferry's own running browser;
// BrowserAttach the browser at spec.URL; BrowserLaunch Ferry's own browser
// launched on the data directory's profile for this request. done
// disconnects from an attached browser and quits a launched one. Errors:
// errs.BrowserDisconnected when Ferry's browser does not run; the launch
// and attach envelopes.
func (h *Runner) specBrowser(ctx context.Context, spec service.BrowserSpec) (b *browser.Browser, done func(), err error) {
	switch spec.Mode {
	case service.BrowserOwn:
		return h.requestBrowser(ctx, "")
	case service.BrowserAttach:
		return h.requestBrowser(ctx, spec.URL)
	}
	if err := h.d.Paths.EnsureDataDir(); err != nil {
		return nil, nil, err
	}
	if b, err = h.pipe.OpenBrowser(ctx, askBrowser(spec)); err != nil {
		return nil, nil, err
	}
	return b, func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		_ = b.Close(cctx)
	}, nil
}

// ListTabsIn lists the tabs of the browser spec names, each described by
// describeTab. Errors: as specBrowser; the browser's envelopes.
func (h *Runner) ListTabsIn(ctx context.Context, spec service.BrowserSpec) ([]service.Tab, error) {
	reg, err := h.pipe.Sites()
	if err != nil {
		return nil, err
	}
	b, done, err := h.specBrowser(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer done()
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := make([]service.Tab, 0, len(targets))
	for _, t := range targets {
		out = append(out, describeTab(reg, t))
	}
	return out, nil
}

// describeTab infers the site and state of a tab from its live address:
// the registry's site whose address holds it, else the one site whose
// login hosts do (the tab is then logged out, not lost). The address is
// redacted (site.Redact).
func describeTab(reg *site.Registry, t browser.Target) service.Tab {
	out := service.Tab{TargetID: t.ID, Title: t.Title, URL: site.Redact(t.URL)}
	if s, ok := reg.ForURL(t.URL); ok {
		out.Site = s.ID
		if s.IsLoginURL(t.URL) {
			out.State = "login"
		}
		return out
	}
	var owners []string
	for _, s := range reg.Sites() {
		if s.IsLoginURL(t.URL) {
			owners = append(owners, s.ID)
		}
	}
	if len(owners) > 0 {
		out.State = "login"
	}
	if len(owners) == 1 {
		out.Site = owners[0]
	}
	return out
}
