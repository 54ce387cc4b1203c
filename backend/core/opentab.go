package core

import (
	"context"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// openSiteTab opens a new background tab on the new-chat address of site
// siteID (its address when it has none) and waits for the page to load. It
// never reuses an open tab: this is how a run asked for a fresh chat avoids
// the ambiguity of several open tabs, and what `ferry open` does. The tab
// is the caller's alone until it detaches (see tablease.go). The tab is
// left open when the page fails to load (the user may want to see why).
// Errors: UnknownSite; the browser's envelopes (BrowserDisconnected,
// NavigationAborted, Timeout when ctx ends first).
func openSiteTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID string) (*browser.Page, site.Site, error) {
	s, err := reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, err
	}
	leases.mu.Lock()
	p, err := b.OpenTab(ctx, "about:blank")
	if err == nil {
		leases.hold(ctx, b, p, tabLease{site: s.ID})
	}
	leases.mu.Unlock()
	if err != nil {
		return nil, site.Site{}, err
	}
	if err := navigateNew(ctx, p, s); err != nil {
		return nil, site.Site{}, err
	}
	return p, s, nil
}

// navigateNew loads the new-chat address of s (its address when it has
// none) in p, a tab just opened; when that fails Ferry detaches from it,
// leaving it open.
func navigateNew(ctx context.Context, p *browser.Page, s site.Site) error {
	start := s.NewChat
	if start == "" {
		start = s.Address
	}
	if err := p.Navigate(ctx, start); err != nil {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.Detach(dctx)
		return err
	}
	return nil
}

// resolveTab finds the tab a run drives: exactly tabID when given (its site
// inferred from its live address, or siteID for a tab on its site's login
// page); else the one open tab of siteID that no other run of this process
// drives and that is not claimed for another agent (owntabs.go); of
// several, the owner's run takes the one the user would (the tab of the
// conversation on screen, else the one Ferry last used: tabpref.go); or a
// new tab on the site's new-chat address when there is none
// (every open tab of the site busy with another run included). created
// reports a new tab. The tab is the caller's alone until it detaches from
// it (see tablease.go): a named tab another run drives is waited for, the
// context's queue notice (withQueueNotice) saying so. Errors: BadInput
// when the tab shows another site than siteID; NavigatedAway for a tab on
// no known site; TabAmbiguous listing the free open tabs of the site when
// several are and none is preferred;
// UnknownSite; the browser's envelopes (TargetNotFound for a tab that is
// gone); Timeout or Cancelled when ctx ends while waiting.
//
// A site that takes one run at a time (site.Site.OneRunAtATime) never gets
// a tab of its own for a run: the run waits, queued, while another run of
// the site goes on.
func resolveTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, site.Site, bool, error) {
	if tabID != "" {
		p, s, err := resolveNamedTab(ctx, b, reg, siteID, tabID)
		if err == nil {
			noteUsed(ctx, b, s.ID, p.ID())
		}
		return p, s, false, err
	}
	s, err := reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	claimOwn(ctx, b)
	queued, err := lockSite(ctx, b, reg, s)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	if queued {
		// Said once the lock is let go, whatever the outcome.
		defer queueNotice(ctx)("")
	}
	targets, err := b.Targets(ctx, func(host string) string {
		if hs, ok := reg.ForHost(host); ok {
			return hs.ID
		}
		return ""
	})
	if err != nil {
		leases.mu.Unlock()
		return nil, site.Site{}, false, err
	}
	// The tabs claimed for an agent are for its runs alone (owntabs.go).
	me := requesterOf(ctx).client
	listed := map[string]bool{}
	var open, free []browser.Target
	for _, t := range targets {
		listed[t.ID] = true
		if c := leases.claimedBy(b, t.ID); c != "" && c != me {
			continue
		}
		if t.Site == s.ID && s.Allows(t.URL) {
			open = append(open, t)
			if !leases.busy(b, t.ID) {
				free = append(free, t)
			}
		}
	}
	leases.forget(b, listed)
	if len(free) > 1 {
		// Where the user would send: the tab of the conversation on
		// screen, else the one Ferry last used (tabpref.go).
		if id := leases.preferred(ctx, b, s, free); id != "" {
			free = []browser.Target{{ID: id}}
		}
	}
	switch len(free) {
	case 0:
		// A tab of the site another run is still loading counts as open.
		spare := len(open) > 0 || len(leases.ofSite(b, s.ID)) > 0
		p, err := b.OpenTab(ctx, "about:blank")
		if err == nil {
			leases.hold(ctx, b, p, tabLease{site: s.ID, spare: spare})
			leases.noteUsed(ctx, b, s.ID, p.ID())
			if me != "" {
				leases.claim(b, p.ID(), me)
			}
		}
		leases.mu.Unlock()
		if err != nil {
			return nil, site.Site{}, false, err
		}
		if err := navigateNew(ctx, p, s); err != nil {
			return nil, site.Site{}, false, err
		}
		return p, s, true, nil
	case 1:
		p, err := b.Page(ctx, free[0].ID)
		if err == nil {
			leases.hold(ctx, b, p, tabLease{site: s.ID})
			leases.noteUsed(ctx, b, s.ID, p.ID())
		}
		leases.mu.Unlock()
		return p, s, false, err
	}
	leases.mu.Unlock()
	var list []string
	for _, t := range free {
		list = append(list, t.ID+" "+site.Redact(t.URL))
	}
	amb := errs.New(errs.TabAmbiguous, "%d %s tabs are open", len(free), s.Name).
		WithEvidence("tabs", strings.Join(list, "; "))
	for _, t := range free {
		amb.WithTab(t.ID, site.Redact(t.URL), t.Title)
	}
	return nil, site.Site{}, false, amb
}

// lockSite takes leases.mu for a run of site s, once no other run of s
// goes on when s takes one run at a time (the context's queue notice says
// so while it waits). queued reports a wait. Errors: Timeout or Cancelled
// when ctx ends while waiting (leases.mu is not held then).
func lockSite(ctx context.Context, b *browser.Browser, reg *site.Registry, s site.Site) (queued bool, err error) {
	for {
		leases.mu.Lock()
		if !s.OneRunAtATime || len(leases.ofSite(b, s.ID)) == 0 {
			return queued, nil
		}
		freed := leases.freed
		leases.mu.Unlock()
		if !queued {
			queued = true
			queueNotice(ctx)("the " + s.Name + " run going on (" + s.Name + " takes one run at a time)")
		}
		if err := wait(ctx, freed); err != nil {
			return queued, errs.Wrap(err, errs.From(err).Code, "wait for the %s run going on (%s takes one at a time)", s.Name, s.Name).
				WithEvidence("site", s.ID)
		}
	}
}

// resolveNamedTab is resolveTab for tab tabID: once no other run drives
// it, the tab with its site.
func resolveNamedTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, site.Site, error) {
	p, err := holdTab(ctx, b, reg, siteID, tabID)
	if err != nil {
		return nil, site.Site{}, err
	}
	s, err := namedTabSite(ctx, p, reg, siteID, tabID)
	if err != nil {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = p.Detach(dctx)
		return nil, site.Site{}, err
	}
	leases.setSite(b, tabID, s.ID)
	return p, s, nil
}

// holdTab attaches to tab tabID of b, a tab of site siteID ("" when not
// known yet), once no other run of this process drives it, and holds it
// until the caller detaches. While it waits, the context's queue notice
// (withQueueNotice) says for what. Errors: the browser's envelopes
// (TargetNotFound for a tab that is gone); Timeout or Cancelled when ctx
// ends while waiting.
func holdTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, error) {
	notice, queued := queueNotice(ctx), false
	for {
		leases.mu.Lock()
		if !leases.busy(b, tabID) {
			break
		}
		held, freed := leases.held[b][tabID], leases.freed
		leases.mu.Unlock()
		if !queued {
			queued = true
			notice(waitingFor(reg, held, tabID))
		}
		if err := wait(ctx, freed); err != nil {
			return nil, errs.Wrap(err, errs.From(err).Code, "wait for tab %s, which another run drives", tabID).
				WithEvidence("tab", tabID)
		}
	}
	p, err := b.Page(ctx, tabID)
	if err == nil {
		leases.hold(ctx, b, p, tabLease{site: siteID})
	}
	leases.mu.Unlock()
	if queued {
		notice("")
	}
	return p, err
}

// waitingFor says what a run waits for: "the ChatGPT tab, which another
// run drives" (or why else it is busy: held.why), naming the tab by its id
// when its site is not known.
func waitingFor(reg *site.Registry, held tabLease, tabID string) string {
	why := "another run drives"
	if held.why != "" {
		why = held.why
	}
	if s, err := reg.Get(held.site); held.site != "" && err == nil {
		return "the " + s.Name + " tab, which " + why
	}
	return "tab " + tabID + ", which " + why
}

// namedTabSite is the site of p, the tab tabID a run names: the site of its
// live address, or siteID for a tab on its site's login page. Errors: as
// resolveTab's for a named tab.
func namedTabSite(ctx context.Context, p *browser.Page, reg *site.Registry, siteID, tabID string) (site.Site, error) {
	info, err := p.Info(ctx)
	if err != nil {
		return site.Site{}, err
	}
	s, ok := reg.ForURL(info.URL)
	switch {
	case siteID != "" && (!ok || !strings.EqualFold(s.ID, siteID)):
		// A tab on the site's login page, say: the adapter reports it.
		want, err := reg.Get(siteID)
		if err != nil {
			return site.Site{}, err
		}
		if ok {
			return site.Site{}, errs.New(errs.BadInput, "tab %s shows %s, not %s", tabID, s.Name, want.Name).
				WithEvidence("tab", tabID).WithEvidence("url", site.Redact(info.URL))
		}
		return want, nil
	case !ok:
		return site.Site{}, errs.New(errs.NavigatedAway, "tab %s is not on a known chat site", tabID).
			WithEvidence("tab", tabID).WithEvidence("url", site.Redact(info.URL)).
			WithHint("bring the tab back to its site, or pass --site to say which site it belongs to")
	}
	return s, nil
}
