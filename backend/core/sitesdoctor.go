package core

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/sitecheck"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// siteCheckTimeout bounds the check of one site (opening its tab
// included); siteChecksAtOnce is how many sites are checked at a time.
const (
	siteCheckTimeout = 45 * time.Second
	siteChecksAtOnce = 3
)

// checkSitesLive checks the sites ids of reg in b, each in an open tab of
// the site (one with a conversation first) or, when it has none, in a tab
// it opens in the background on the site's new-chat address, leased in l
// while it is checked. Nothing is
// typed, clicked or navigated in a tab the check did not open; a tab it
// opened is closed again when the site is ok, and left open for the user
// (to log in, to look) when it is not. A site whose tab cannot be found or
// read is a report with an Error. Errors: UnknownSite (before any tab is
// touched).
func checkSitesLive(ctx context.Context, l *tabs.Leases, b *browser.Browser, reg *site.Registry, ids []string) (sitecheck.Report, error) {
	for _, id := range ids {
		if _, err := reg.Get(id); err != nil {
			return sitecheck.Report{}, err
		}
	}
	out := make([]sitecheck.SiteReport, len(ids))
	sem := make(chan struct{}, siteChecksAtOnce)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = checkSiteLive(ctx, l, b, reg, id)
		}()
	}
	wg.Wait()
	return sitecheck.NewReport(out), nil
}

func checkSiteLive(ctx context.Context, l *tabs.Leases, b *browser.Browser, reg *site.Registry, id string) sitecheck.SiteReport {
	s, _ := reg.Get(id)
	ctx, cancel := context.WithTimeout(ctx, siteCheckTimeout)
	defer cancel()
	p, opened, err := siteCheckTab(ctx, l, b, reg, s)
	if err != nil {
		return sitecheck.Failed(s, err)
	}
	rep := sitecheck.Check(ctx, p, s, reg)
	rep.Opened = opened
	if !opened {
		// The session with a tab the check found is shared with whoever
		// else drives it (a run): detaching would end theirs too.
		return rep
	}
	dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer dcancel()
	if rep.OK {
		_ = p.Close(dctx)
		return rep
	}
	_ = p.Detach(dctx)
	return rep
}

// siteCheckTab is the tab to check site s in: an open tab of the site (on
// a conversation first, where the thread's roles show), else a new one.
func siteCheckTab(ctx context.Context, l *tabs.Leases, b *browser.Browser, reg *site.Registry, s site.Site) (*browser.Page, bool, error) {
	targets, err := b.Targets(ctx, func(host string) string {
		if hs, ok := reg.ForHost(host); ok {
			return hs.ID
		}
		return ""
	})
	if err != nil {
		return nil, false, err
	}
	var best *browser.Target
	for i, t := range targets {
		if !s.Allows(t.URL) && !s.IsLoginURL(t.URL) {
			continue
		}
		if best == nil || tabs.ConversationOf(s, best.URL) == "" && tabs.ConversationOf(s, t.URL) != "" {
			best = &targets[i]
		}
	}
	if best != nil {
		p, err := b.Page(ctx, best.ID)
		return p, false, err
	}
	p, _, err := l.OpenSite(ctx, tabs.Run{}, b, reg, s.ID)
	return p, err == nil, err
}

// usedSites are the sites the user uses: those of b's open tabs and of the
// history's runs, sorted; every site of reg when there are none.
func (h *runner) usedSites(ctx context.Context, b *browser.Browser, reg *site.Registry) []string {
	seen := map[string]bool{}
	if targets, err := b.Targets(ctx, nil); err == nil {
		for _, t := range targets {
			if s, ok := reg.ForURL(t.URL); ok {
				seen[s.ID] = true
			}
		}
	}
	if runs, _, err := h.c.searchHistory(ctx, job.Filter{Limit: 200}); err == nil {
		for _, l := range runs {
			if l.Session != nil {
				if _, err := reg.Get(l.Session.Site); err == nil {
					seen[l.Session.Site] = true
				}
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
// checkSitesLive). A browser launched for the check is quit after it,
// with every tab it opened. Errors: UnknownSite; ConfigInvalid for a bad
// site override; the browser's envelopes (BrowserDisconnected when the
// browser named does not run; BrowserLaunchFailed, BrowserNotFound).
func (h *runner) DoctorSites(ctx context.Context, req service.SitesDoctorRequest) (sitecheck.Report, error) {
	reg, err := h.c.sites()
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
	rep, err := checkSitesLive(ctx, h.c.leases, b, reg, ids)
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
func (h *runner) sitesBrowser(ctx context.Context, req service.SitesDoctorRequest) (b *browser.Browser, done func(), launched bool, err error) {
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
		profile := h.c.Paths().ProfileDir()
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

// DoctorSites checks the sites live (runner.DoctorSites). Errors:
// errs.HubForbidden for an agent; as runner.DoctorSites.
func (s *Service) DoctorSites(ctx context.Context, c service.Caller, req service.SitesDoctorRequest) (service.SitesReport, error) {
	if err := admit(c, "check the sites", req); err != nil {
		return service.SitesReport{}, err
	}
	return s.h.DoctorSites(ctx, req)
}

// ApplySiteOverride adds req.Override to the "sites" setting (see
// sitecheck.Apply), checks the result as the Settings view's sites editor
// does, and saves it. Errors: errs.HubForbidden for an agent;
// errs.ConfigInvalid or errs.SiteIncomplete (nothing saved).
func (s *Service) ApplySiteOverride(ctx context.Context, c service.Caller, req service.ApplySiteOverrideRequest) (config.Settings, error) {
	if err := admit(c, "change the settings", req); err != nil {
		return config.Settings{}, err
	}
	set := s.c.Settings()
	sites, err := sitecheck.Apply(set.Sites, req.Override)
	if err != nil {
		return config.Settings{}, err
	}
	text, err := json.MarshalIndent(sites, "", "  ")
	if err != nil {
		return config.Settings{}, err
	}
	if sites, err = site.Builtin().CheckOverridesText(string(text)); err != nil {
		return config.Settings{}, err
	}
	set.Sites = sites
	if err := s.c.saveSettings(set); err != nil {
		return config.Settings{}, err
	}
	return s.c.Settings(), nil
}
