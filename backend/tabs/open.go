package tabs

import (
	"context"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// OpenSite opens a new background tab for run r on the new-chat address of
// site siteID (its address when it has none) and waits for the page to
// load. It never reuses an open tab: this is how a run asked for a fresh
// chat avoids the ambiguity of several open tabs, and what `ferry open`
// does. The tab is the caller's alone until it detaches (see leases.go).
// The tab is left open when the page fails to load (the user may want to
// see why). Errors: UnknownSite; the browser's envelopes
// (BrowserDisconnected, NavigationAborted, Timeout when ctx ends first).
func (l *Leases) OpenSite(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, siteID string) (*browser.Page, site.Site, error) {
	s, err := reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, err
	}
	l.mu.Lock()
	p, err := b.OpenTab(ctx, "about:blank")
	if err == nil {
		l.hold(ctx, r, b, p, lease{site: s.ID})
	}
	l.mu.Unlock()
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

// Resolve finds the tab run r drives: exactly tabID when given (its site
// inferred from its live address, or siteID for a tab on its site's login
// page); else the one open tab of siteID that no other run holding l
// drives and that is not claimed for another agent (own.go); of several,
// the owner's run takes the one the user would (the tab of the
// conversation on screen, else the one Ferry last used: pref.go); or a new
// tab on the site's new-chat address when there is none (every open tab of
// the site busy with another run included). created reports a new tab. The
// tab is the caller's alone until it detaches from it (see leases.go): a
// named tab another run drives is waited for, r's queue notice
// (Run.Queued) saying so. Errors: BadInput
// when the tab shows another site than siteID; NavigatedAway for a tab on
// no known site; TabAmbiguous listing the free open tabs of the site when
// several are and none is preferred;
// UnknownSite; the browser's envelopes (TargetNotFound for a tab that is
// gone); Timeout or Cancelled when ctx ends while waiting.
//
// A site that takes one run at a time (site.Site.OneRunAtATime) never gets
// a tab of its own for a run: the run waits, queued, while another run of
// the site goes on.
func (l *Leases) Resolve(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, site.Site, bool, error) {
	if tabID != "" {
		p, s, err := l.resolveNamed(ctx, r, b, reg, siteID, tabID)
		if err == nil {
			l.noteUsedLocking(r, b, s.ID, p.ID())
		}
		return p, s, false, err
	}
	s, err := reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	l.claimOwn(r, b)
	queued, err := l.lockSite(ctx, r, b, s)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	if queued {
		// Said once the lock is let go, whatever the outcome.
		defer r.notice()("")
	}
	targets, err := b.Targets(ctx, func(host string) string {
		if hs, ok := reg.ForHost(host); ok {
			return hs.ID
		}
		return ""
	})
	if err != nil {
		l.mu.Unlock()
		return nil, site.Site{}, false, err
	}
	// The tabs claimed for an agent are for its runs alone (own.go).
	me := r.Client
	listed := map[string]bool{}
	var open, free []browser.Target
	for _, t := range targets {
		listed[t.ID] = true
		if c := l.claimedBy(b, t.ID); c != "" && c != me {
			continue
		}
		if t.Site == s.ID && s.Allows(t.URL) {
			open = append(open, t)
			if !l.busy(b, t.ID) {
				free = append(free, t)
			}
		}
	}
	l.forget(b, listed)
	if len(free) > 1 {
		// Where the user would send: the tab of the conversation on
		// screen, else the one Ferry last used (pref.go).
		if id := l.preferred(r, b, s, free); id != "" {
			free = []browser.Target{{ID: id}}
		}
	}
	switch len(free) {
	case 0:
		// A tab of the site another run is still loading counts as open.
		spare := len(open) > 0 || len(l.ofSite(b, s.ID)) > 0
		p, err := b.OpenTab(ctx, "about:blank")
		if err == nil {
			l.hold(ctx, r, b, p, lease{site: s.ID, spare: spare})
			l.noteUsed(r, b, s.ID, p.ID())
			if me != "" {
				l.claim(b, p.ID(), me)
			}
		}
		l.mu.Unlock()
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
			l.hold(ctx, r, b, p, lease{site: s.ID})
			l.noteUsed(r, b, s.ID, p.ID())
		}
		l.mu.Unlock()
		return p, s, false, err
	}
	l.mu.Unlock()
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

// lockSite takes l.mu for run r of site s, once no other run of s goes on
// when s takes one run at a time (r's queue notice says so while it
// waits). queued reports a wait. Errors: Timeout or Cancelled when ctx ends
// while waiting (l.mu is not held then).
func (l *Leases) lockSite(ctx context.Context, r Run, b *browser.Browser, s site.Site) (queued bool, err error) {
	for {
		l.mu.Lock()
		if !s.OneRunAtATime || len(l.ofSite(b, s.ID)) == 0 {
			return queued, nil
		}
		freed := l.freed
		l.mu.Unlock()
		if !queued {
			queued = true
			r.notice()("the " + s.Name + " run going on (" + s.Name + " takes one run at a time)")
		}
		if err := wait(ctx, freed); err != nil {
			return queued, errs.Wrap(err, errs.From(err).Code, "wait for the %s run going on (%s takes one at a time)", s.Name, s.Name).
				WithEvidence("site", s.ID)
		}
	}
}

// resolveNamed is Resolve for tab tabID: once no other run drives it, the
// tab with its site.
func (l *Leases) resolveNamed(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, site.Site, error) {
	p, err := l.Hold(ctx, r, b, reg, siteID, tabID)
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
	l.setSite(b, tabID, s.ID)
	return p, s, nil
}

// Hold attaches to tab tabID of b, a tab of site siteID ("" when not
// known yet), once no other run holding l drives it, and holds it for run
// r until the caller detaches. While it waits, r's queue notice (Run.Queued)
// says for what. Errors: the browser's envelopes (TargetNotFound for a tab
// that is gone); Timeout or Cancelled when ctx ends while waiting.
func (l *Leases) Hold(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, siteID, tabID string) (*browser.Page, error) {
	notice, queued := r.notice(), false
	for {
		l.mu.Lock()
		if !l.busy(b, tabID) {
			break
		}
		held, freed := l.held[b][tabID], l.freed
		l.mu.Unlock()
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
		l.hold(ctx, r, b, p, lease{site: siteID})
	}
	l.mu.Unlock()
	if queued {
		notice("")
	}
	return p, err
}

// waitingFor says what a run waits for: "the ChatGPT tab, which another
// run drives" (or why else it is busy: held.why), naming the tab by its id
// when its site is not known.
func waitingFor(reg *site.Registry, held lease, tabID string) string {
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
// Resolve's for a named tab.
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
