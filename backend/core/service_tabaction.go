package core

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/logins"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// tabActionTimeout bounds an action on a tab, a login page's load included.
const tabActionTimeout = 30 * time.Second

// TabAction shows, closes or shows the login page of tab req.TargetID of
// the owner's browser, and returns the tab then. Show is the one thing
// that puts the browser in front: the user asked for it. Errors: as
// BrowserState; errs.BrowserDisconnected when the browser is not
// connected; errs.TargetNotFound for a tab that is not open;
// errs.UnknownSite for login on a tab of no known site; the browser's
// envelopes (errs.NavigationAborted, errs.Timeout).
func (s *Service) TabAction(ctx context.Context, c service.Caller, req service.TabActionRequest) (service.TabActionResult, error) {
	if err := admit(c, "act on the tabs", req); err != nil {
		return service.TabActionResult{}, err
	}
	ob, err := s.ownerBrowser()
	if err != nil {
		return service.TabActionResult{}, err
	}
	b := ob.Current()
	if b == nil {
		return service.TabActionResult{}, errs.New(errs.BrowserDisconnected, "the browser is not connected").
			WithHint("launch the browser (or attach to yours) first")
	}
	reg, err := s.c.sites()
	if err != nil {
		return service.TabActionResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, tabActionTimeout)
	defer cancel()
	before, err := s.tabState(ctx, b, reg, req.TargetID)
	if err != nil {
		return service.TabActionResult{}, err
	}
	switch req.Action {
	case service.TabActionClose:
		if err := b.CloseTab(ctx, req.TargetID); err != nil {
			return service.TabActionResult{}, err
		}
		return service.TabActionResult{Tab: before, Closed: true}, nil
	case service.TabActionLogin:
		st, err := reg.Get(before.Site)
		if err != nil {
			return service.TabActionResult{}, errs.New(errs.UnknownSite, "the tab shows %s, which is no chat site Ferry knows: there is nothing to log in to", before.URL).
				WithEvidence("target_id", req.TargetID)
		}
		if before.State != tabs.NeedsLogin || !st.IsLoginURL(before.URL) {
			p, err := b.Page(ctx, req.TargetID)
			if err != nil {
				return service.TabActionResult{}, err
			}
			if err := p.Navigate(ctx, logins.Address(st)); err != nil {
				return service.TabActionResult{}, err
			}
		}
	}
	if err := b.ShowTab(ctx, req.TargetID); err != nil {
		return service.TabActionResult{}, err
	}
	after, err := s.tabState(ctx, b, reg, req.TargetID)
	if err != nil {
		return service.TabActionResult{}, err
	}
	return service.TabActionResult{Tab: after}, nil
}

// tabState is the state of tab id among the browser's tabs, as
// tabs.States gives it. Errors: errs.TargetNotFound when no open tab has the id.
func (s *Service) tabState(ctx context.Context, b *browser.Browser, reg *site.Registry, id string) (service.TabState, error) {
	list, err := tabs.States(ctx, b, reg, &s.c.ledger)
	if err != nil {
		return service.TabState{}, err
	}
	for _, t := range list {
		if t.TargetID == id {
			return t, nil
		}
	}
	return service.TabState{}, errs.New(errs.TargetNotFound, "no open tab has the id %s", id).
		WithEvidence("target_id", id).WithHint("the tab was closed: refresh the list of tabs")
}
