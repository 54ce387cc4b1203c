package tabs

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// An agent without the right to use the user's tabs asks every site-only
// prompt in a new chat (core's caller scope). Opening a tab for each
// would leave one tab per ask behind; a new chat instead takes one of the
// tabs the agent's earlier runs opened when it is free, and navigates it
// to the site's new-chat address. The agent so keeps one tab of a site per
// run it has going on at once, and never gets one of the user's. The other
// way round, the tabs of an agent are claimed for it (leases.go): a run
// of the user or of another agent that names no tab never chooses one, so
// the user's next site-only ask finds the user's own tab, not a choice
// between it and the agent's.

// claimOwn claims for the agent run r is for the tabs its earlier runs
// opened (after a restart of the owner the claims are made again so).
func (l *Leases) claimOwn(r Run, b *browser.Browser) {
	if r.Client == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range r.Own {
		l.claim(b, id, r.Client)
	}
}

// claimFor records p's tab as the tab of the agent run r is for, if any.
func (l *Leases) claimFor(r Run, b *browser.Browser, p *browser.Page) {
	if r.Client != "" {
		l.mu.Lock()
		l.claim(b, p.ID(), r.Client)
		l.mu.Unlock()
	}
}

// NewChat is the tab of run r, asked for a new chat on site siteID: the
// first of the agent's own tabs (Run.Own) that is open on the site and
// that no run drives, navigated to the site's new-chat address; for the
// owner, the tab of the run on screen when that run sent nothing there and
// it still shows the new chat (takeUnsentTab); else a new background tab
// (OpenSite). created reports a new tab. The tab is the caller's alone
// until it detaches (see leases.go). Errors: UnknownSite; the browser's
// envelopes (NavigationAborted, Timeout when ctx ends first,
// BrowserDisconnected).
func (l *Leases) NewChat(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, siteID string) (p *browser.Page, s site.Site, created bool, err error) {
	l.claimOwn(r, b)
	s, err = reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	p, err = l.takeOwnTab(ctx, r, b, reg, s)
	if err == nil && p == nil {
		p, err = l.takeUnsentTab(ctx, r, b, reg, s)
	}
	if err != nil {
		return nil, site.Site{}, false, err
	}
	if p != nil {
		if err := navigateNew(ctx, p, s); err != nil {
			return nil, site.Site{}, false, err
		}
		l.noteUsedLocking(r, b, s.ID, p.ID())
		return p, s, false, nil
	}
	p, s, err = l.OpenSite(ctx, r, b, reg, siteID)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	l.claimFor(r, b, p)
	l.noteUsedLocking(r, b, s.ID, p.ID())
	return p, s, true, nil
}

// Continue is the tab of run r, which continues the conversation at
// address conv on site siteID: a tab that shows it (prefer first, the tab
// of the run it follows, when it still does; one another run drives is
// waited for), else one of the agent's own free tabs (Run.Own) or a new
// background tab, navigated to conv. created reports a new tab. Errors:
// UnknownSite; BadInput when conv is not an address of the site; the
// browser's envelopes.
func (l *Leases) Continue(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, siteID, conv, prefer string) (*browser.Page, site.Site, bool, error) {
	l.claimOwn(r, b)
	s, err := reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	// A conversation saved on a host the site left is continued on its own.
	conv = s.Current(conv)
	if !s.Allows(conv) {
		return nil, site.Site{}, false, errs.New(errs.BadInput, "%q is not a %s conversation address", site.Redact(conv), s.Name).
			WithHint("continue a run that has a conversation address")
	}
	if _, transient := s.Conversation(conv); transient {
		return nil, site.Site{}, false, errs.New(errs.BadInput, "%q is a new %s chat's transient address, not its conversation's lasting one", site.Redact(conv), s.Name).
			WithHint("wait until the tab shows the conversation's own address (on ChatGPT /c/<id>) and continue that")
	}
	targets, err := settledTargets(ctx, b, reg, s, prefer)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	var on []string
	for _, t := range targets {
		if SameConversation(t.URL, conv) {
			if t.ID == prefer {
				on = append([]string{t.ID}, on...)
			} else {
				on = append(on, t.ID)
			}
		}
	}
	for _, id := range on {
		p, _, err := l.resolveNamed(ctx, r, b, reg, s.ID, id)
		if errs.CodeOf(err) == errs.TargetNotFound {
			continue
		}
		if err != nil {
			return nil, site.Site{}, false, err
		}
		l.noteUsedLocking(r, b, s.ID, p.ID())
		return p, s, false, nil
	}
	p, err := l.takeOwnTab(ctx, r, b, reg, s)
	created := false
	if err == nil && p == nil {
		l.mu.Lock()
		p, err = b.OpenTab(ctx, "about:blank")
		if err == nil {
			l.hold(ctx, r, b, p, lease{site: s.ID})
			if r.Client != "" {
				l.claim(b, p.ID(), r.Client)
			}
		}
		l.mu.Unlock()
		created = true
	}
	if err != nil {
		return nil, site.Site{}, false, err
	}
	if err := p.Navigate(ctx, conv); err != nil {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.Detach(dctx)
		return nil, site.Site{}, false, err
	}
	l.noteUsedLocking(r, b, s.ID, p.ID())
	return p, s, created, nil
}

// SameConversation reports whether the tab address raw shows the
// conversation at conv: the same host and path, whatever the query.
func SameConversation(raw, conv string) bool {
	a, err1 := url.Parse(raw)
	c, err2 := url.Parse(conv)
	return err1 == nil && err2 == nil && a.Host == c.Host && strings.TrimSuffix(a.Path, "/") == strings.TrimSuffix(c.Path, "/")
}

// addressPatience bounds how long Continue waits for the preferred tab
// to trade a new chat's transient address for its lasting one.
const addressPatience = 15 * time.Second

// settledTargets lists the open tabs of b on site s as siteTargets does,
// once the tab prefer (the run's own) no longer shows a new chat's
// transient address (ChatGPT's /c/WEB:<uuid>, replaced by /c/<id> a while
// after the first answer), or after addressPatience: a follow-up asked
// right after its first answer then finds that answer's tab.
func settledTargets(ctx context.Context, b *browser.Browser, reg *site.Registry, s site.Site, prefer string) ([]browser.Target, error) {
	deadline := time.Now().Add(addressPatience)
	for {
		targets, err := siteTargets(ctx, b, reg, s)
		if err != nil || prefer == "" || time.Now().After(deadline) {
			return targets, err
		}
		waiting := false
		for _, t := range targets {
			if _, transient := s.Conversation(t.URL); transient && t.ID == prefer {
				waiting = true
			}
		}
		if !waiting {
			return targets, nil
		}
		select {
		case <-ctx.Done():
			return targets, nil
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// siteTargets lists the open tabs of b on site s.
func siteTargets(ctx context.Context, b *browser.Browser, reg *site.Registry, s site.Site) ([]browser.Target, error) {
	targets, err := b.Targets(ctx, func(host string) string {
		if hs, ok := reg.ForHost(host); ok {
			return hs.ID
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	var out []browser.Target
	for _, t := range targets {
		if t.Site == s.ID && s.Allows(t.URL) {
			out = append(out, t)
		}
	}
	return out, nil
}

// takeOwnTab leases the first of the agent's own tabs (Run.Own) that is
// open on site s and free, or returns nil when none is. Errors: the
// browser's envelopes.
func (l *Leases) takeOwnTab(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, s site.Site) (*browser.Page, error) {
	own := r.Own
	if len(own) == 0 {
		return nil, nil
	}
	targets, err := siteTargets(ctx, b, reg, s)
	if err != nil {
		return nil, err
	}
	open := map[string]bool{}
	for _, t := range targets {
		open[t.ID] = true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range own {
		if !open[id] || l.busy(b, id) {
			continue
		}
		p, err := b.Page(ctx, id)
		if err != nil {
			// Closed since the listing: the next one, or a new tab.
			continue
		}
		l.hold(ctx, r, b, p, lease{site: s.ID})
		return p, nil
	}
	return nil, nil
}
