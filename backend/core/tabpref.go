package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/site"
)

// A run of the owner that names no tab goes where the user would: when
// several tabs of its site are free, to the tab that shows the
// conversation the user has on screen (the run the desktop's Compose
// shows, withShown), else to the tab Ferry last took for a run of the
// owner on that site (noteUsed). Only tabs Ferry cannot tell apart that
// way fail closed (TabAmbiguous). A new chat sent again after a run that
// stopped before its send (a check to solve, say) takes that run's tab,
// still on the new-chat page, instead of opening one more. None of this
// applies to agents: their runs take their own tabs (owntabs.go), and a
// preference never reaches a tab claimed for another agent.

// shownRun is the run whose conversation the asker has on screen.
type shownRun struct {
	site string
	tab  string // the tab it drove
	conv string // its conversation's address ("" when it got none)
	sent bool   // its prompt was sent (a submission was journaled)
}

type shownKey struct{}

// withShown returns ctx carrying that the asker has run r on screen.
func withShown(ctx context.Context, r shownRun) context.Context {
	return context.WithValue(ctx, shownKey{}, r)
}

// shownOf is the run on screen for ctx's run, if any.
func shownOf(ctx context.Context) (shownRun, bool) {
	r, ok := ctx.Value(shownKey{}).(shownRun)
	return r, ok
}

// noteUsed records that a run of ctx took tab id of b on site siteID, when
// the run is the owner's. l.mu must be held.
func (l *tabLeases) noteUsed(ctx context.Context, b *browser.Browser, siteID, id string) {
	if requesterOf(ctx).client != "" || siteID == "" || id == "" {
		return
	}
	if l.used[b] == nil {
		l.used[b] = map[string]string{}
	}
	l.used[b][siteID] = id
}

// noteUsed is tabLeases.noteUsed taking l.mu.
func noteUsed(ctx context.Context, b *browser.Browser, siteID, id string) {
	leases.mu.Lock()
	defer leases.mu.Unlock()
	leases.noteUsed(ctx, b, siteID, id)
}

// preferred is the one of free (the free open tabs of site s) that a run
// of ctx naming no tab goes to: the tab that shows the conversation on
// screen (the shown run's own tab first; that tab itself when the run got
// no conversation), else the tab the owner's runs last took on s; "" when
// neither is among free, or for an agent's run. l.mu must be held.
func (l *tabLeases) preferred(ctx context.Context, b *browser.Browser, s site.Site, free []browser.Target) string {
	if requesterOf(ctx).client != "" {
		return ""
	}
	if sh, ok := shownOf(ctx); ok && sh.site == s.ID {
		pick := ""
		for _, t := range free {
			on := t.ID == sh.tab
			if sh.conv != "" {
				on = sameConversation(t.URL, sh.conv)
			}
			if on && (pick == "" || t.ID == sh.tab) {
				pick = t.ID
			}
		}
		if pick != "" {
			return pick
		}
	}
	last := l.used[b][s.ID]
	for _, t := range free {
		if t.ID == last {
			return last
		}
	}
	return ""
}

// takeUnsentTab leases the tab of the run on screen (shownOf) when that
// run, the owner's, sent nothing and its tab is open on site s, free, and
// still on the site's new-chat page (or a check in front of it), so that a
// new chat sent again does not open one more tab; nil when there is none.
// Errors: the browser's envelopes.
func takeUnsentTab(ctx context.Context, b *browser.Browser, reg *site.Registry, s site.Site) (*browser.Page, error) {
	sh, ok := shownOf(ctx)
	if requesterOf(ctx).client != "" || !ok || sh.sent || sh.tab == "" || sh.site != s.ID {
		return nil, nil
	}
	targets, err := siteTargets(ctx, b, reg, s)
	if err != nil {
		return nil, err
	}
	start := s.NewChat
	if start == "" {
		start = s.Address
	}
	for _, t := range targets {
		if t.ID != sh.tab || !(sameConversation(t.URL, start) || sameConversation(t.URL, s.Address)) {
			continue
		}
		leases.mu.Lock()
		defer leases.mu.Unlock()
		if leases.busy(b, t.ID) || leases.claimedBy(b, t.ID) != "" {
			return nil, nil
		}
		p, err := b.Page(ctx, t.ID)
		if err != nil {
			// Closed since the listing: a new tab then.
			return nil, nil
		}
		leases.hold(ctx, b, p, tabLease{site: s.ID})
		return p, nil
	}
	return nil, nil
}
