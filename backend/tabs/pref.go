package tabs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/site"
)

// A run of the owner that names no tab goes where the user would: when
// several tabs of its site are free, to the tab that shows the
// conversation the user has on screen (the run the desktop's Compose
// shows, Run.Shown), else to the tab Ferry last took for a run of the
// owner on that site (noteUsed). Only tabs Ferry cannot tell apart that
// way fail closed (TabAmbiguous). A new chat sent again after a run that
// stopped before its send (a check to solve, say) takes that run's tab,
// still on the new-chat page, instead of opening one more. None of this
// applies to agents: their runs take their own tabs (own.go), and a
// preference never reaches a tab claimed for another agent.

// Shown is the run whose conversation the owner has on screen.
type Shown struct {
	Site string
	Tab  string // the tab it drove
	Conv string // its conversation's address ("" when it got none)
	Sent bool   // its prompt was sent (a submission was journaled)
}

// noteUsed records that run r took tab id of b on site siteID, when r is
// the owner's. l.mu must be held.
func (l *Leases) noteUsed(r Run, b *browser.Browser, siteID, id string) {
	if r.Client != "" || siteID == "" || id == "" {
		return
	}
	if l.used[b] == nil {
		l.used[b] = map[string]string{}
	}
	l.used[b][siteID] = id
}

// noteUsedLocking is noteUsed taking l.mu.
func (l *Leases) noteUsedLocking(r Run, b *browser.Browser, siteID, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.noteUsed(r, b, siteID, id)
}

// preferred is the one of free (the free open tabs of site s) that run r,
// naming no tab, goes to: the tab that shows the conversation on
// screen (the shown run's own tab first; that tab itself when the run got
// no conversation), else the tab the owner's runs last took on s; "" when
// neither is among free, or for an agent's run. l.mu must be held.
func (l *Leases) preferred(r Run, b *browser.Browser, s site.Site, free []browser.Target) string {
	if r.Client != "" {
		return ""
	}
	if sh := r.Shown; sh != nil && sh.Site == s.ID {
		pick := ""
		for _, t := range free {
			on := t.ID == sh.Tab
			if sh.Conv != "" {
				on = SameConversation(t.URL, sh.Conv)
			}
			if on && (pick == "" || t.ID == sh.Tab) {
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

// takeUnsentTab leases the tab of the run on screen (Run.Shown) when that
// run, the owner's, sent nothing and its tab is open on site s, free, and
// still on the site's new-chat page (or a check in front of it), so that a
// new chat sent again does not open one more tab; nil when there is none.
// Errors: the browser's envelopes.
func (l *Leases) takeUnsentTab(ctx context.Context, r Run, b *browser.Browser, reg *site.Registry, s site.Site) (*browser.Page, error) {
	sh := r.Shown
	if r.Client != "" || sh == nil || sh.Sent || sh.Tab == "" || sh.Site != s.ID {
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
		if t.ID != sh.Tab || !(SameConversation(t.URL, start) || SameConversation(t.URL, s.Address)) {
			continue
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.busy(b, t.ID) || l.claimedBy(b, t.ID) != "" {
			return nil, nil
		}
		p, err := b.Page(ctx, t.ID)
		if err != nil {
			// Closed since the listing: a new tab then.
			return nil, nil
		}
		l.hold(ctx, r, b, p, lease{site: s.ID})
		return p, nil
	}
	return nil, nil
}
