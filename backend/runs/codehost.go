package runs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// runTabs is codemode.Tabs over the runs' tab leases for one run, with
// open as the way to the browser.
type runTabs struct {
	open   func(ctx context.Context) (*browser.Browser, error)
	leases *tabs.Leases
	run    tabs.Run
}

// OpenBrowser implements codemode.Tabs. Errors: BrowserDisconnected when
// no way to a browser was given; open's envelopes.
func (t runTabs) OpenBrowser(ctx context.Context) (*browser.Browser, error) {
	if t.open == nil {
		return nil, errs.New(errs.BrowserDisconnected, "no browser was given to this run")
	}
	return t.open(ctx)
}

// ResolveTab implements codemode.Tabs with tabs.Leases.Resolve.
func (t runTabs) ResolveTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, site.Site, bool, error) {
	return t.leases.Resolve(ctx, t.run, b, reg, siteID, tabID)
}

// NewChatTab implements codemode.Tabs with tabs.Leases.NewChat.
func (t runTabs) NewChatTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID string) (*browser.Page, site.Site, bool, error) {
	return t.leases.NewChat(ctx, t.run, b, reg, siteID)
}

// codeHost is codemode.Host over the pipeline: its settings, history,
// templates and sites, and the browser of one request's options.
type codeHost struct {
	runTabs
	pipe *Pipeline
}

// codeHost is the Host of a code run whose browser options are req's.
func (p *Pipeline) codeHost(req AskRequest) codeHost {
	open := func(ctx context.Context) (*browser.Browser, error) { return p.OpenBrowser(ctx, req) }
	return codeHost{runTabs: runTabs{open: open, leases: p.d.Leases, run: req.Tab}, pipe: p}
}

// Settings implements codemode.Host.
func (h codeHost) Settings() config.Settings { return h.pipe.d.Settings() }

// ArtifactsDir implements codemode.Host: the data directory's artifacts/.
func (h codeHost) ArtifactsDir() string { return h.pipe.d.Paths.ArtifactsDir() }

// Sites implements codemode.Host with Pipeline.Sites.
func (h codeHost) Sites() (*site.Registry, error) { return h.pipe.Sites() }

// Sessions implements codemode.Host with the data directory's history.
func (h codeHost) Sessions(ctx context.Context) (*job.Repo, error) { return h.pipe.d.History(ctx) }

// Task implements codemode.Host: the prompt, or the template's rendering.
func (h codeHost) Task(ctx context.Context, text, template string, vars map[string]string) (string, error) {
	return h.pipe.taskOf(ctx, text, template, vars)
}

// Interface guards.
var (
	_ codemode.Tabs = runTabs{}
	_ codemode.Host = codeHost{}
)
