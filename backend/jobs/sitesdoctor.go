package jobs

import (
	"context"
	"os"
	"path/filepath"
	"sort"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/sitecheck"
)

// usedSites are the sites the user uses: those of b's open tabs and of the
// history's runs, sorted; every site of reg when there are none.
func (h *Runner) usedSites(ctx context.Context, b *browser.Browser, reg *site.Registry) []string {
	seen := map[string]bool{}
	if targets, err := b.Targets(ctx, nil); err == nil {
		for _, t := range targets {
			if s, ok := reg.ForURL(t.URL); ok {
				seen[s.ID] = true
			}
		}
	}
	var recent []job.Listed
	if repo, err := h.d.History(ctx); err == nil {
		recent, _, _ = repo.List(ctx, job.Filter{Limit: 200}) // a history that cannot be read adds no site
	}
	for _, l := range recent {
		if l.Session != nil {
			if _, err := reg.Get(l.Session.Site); err == nil {
				seen[l.Session.Site] = true
			}
		}
	}
	if len(seen) == 0 {
		return reg.IDs()
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// DoctorSites checks req.Sites (every site the user uses when none) live
// in the browser the request names (see service.SitesDoctorRequest and
// sitecheck.Live). A browser launched for the check is quit after it,
// with every tab it opened. Errors: UnknownSite; ConfigInvalid for a bad
// site override; the browser's envelopes (BrowserDisconnected when the
// browser named does not run; BrowserLaunchFailed, BrowserNotFound).
func (h *Runner) DoctorSites(ctx context.Context, req service.SitesDoctorRequest) (sitecheck.Report, error) {
	reg, err := h.pipe.Sites()
	if err != nil {
		return sitecheck.Report{}, err
	}
	for _, id := range req.Sites {
		if _, err := reg.Get(id); err != nil {
			return sitecheck.Report{}, err
		}
	}
	b, done, launched, err := h.sitesBrowser(ctx, req)
	if err != nil {
		return sitecheck.Report{}, err
	}
	defer done()
	ids := req.Sites
	if len(ids) == 0 {
		ids = h.usedSites(ctx, b, reg)
	}
	rep, err := sitecheck.Live(ctx, h.d.Leases, b, reg, ids)
	if launched {
		for i := range rep.Sites {
			if s, gerr := reg.Get(rep.Sites[i].Site); gerr == nil {
				sitecheck.BrowserClosed(&rep.Sites[i], s)
			}
		}
	}
	return rep, err
}

// sitesBrowser is the browser req names for the check, and whether it was
// launched for it (done quits it then, else disconnects). Without a
// browser named it is the owner's long-lived browser, else Ferry's own
// running one, else Ferry's own launched on its profile, as `ferry ask`
// launches it.
func (h *Runner) sitesBrowser(ctx context.Context, req service.SitesDoctorRequest) (b *browser.Browser, done func(), launched bool, err error) {
	if req.BrowserURL != "" {
		b, done, err = h.requestBrowser(ctx, req.BrowserURL)
		return b, done, false, err
	}
	if req.Browser != nil && req.Browser.Mode != service.BrowserLaunch {
		b, done, err = h.specBrowser(ctx, *req.Browser)
		return b, done, false, err
	}
	own, err := h.browserFor(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	if own != nil {
		return own, func() {}, false, nil
	}
	if req.Browser == nil {
		profile := h.d.Paths.ProfileDir()
		if _, serr := os.Stat(filepath.Join(profile, "DevToolsActivePort")); serr == nil {
			b, done, err = h.requestBrowser(ctx, "")
			if c := errs.CodeOf(err); err == nil || c != errs.BrowserDisconnected && c != errs.BrowserLaunchFailed {
				return b, done, false, err
			}
			// Nothing answers at the port file a browser left behind:
			// launch anew (Launch refuses a profile still in use).
		}
	}
	spec := service.BrowserSpec{Mode: service.BrowserLaunch}
	if req.Browser != nil {
		spec = *req.Browser
	}
	b, done, err = h.specBrowser(ctx, spec)
	return b, done, err == nil, err
}
