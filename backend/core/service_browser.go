package core

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// tabStatesTimeout bounds a listing of the owner's tabs (each tab's probe
// is bounded too).
const tabStatesTimeout = 15 * time.Second

// ownerBrowser is the owner's browser, or the envelope of a Service that
// has none.
func (s *Service) ownerBrowser() (*ownerbrowser.Browser, error) {
	if s.browser == nil {
		return nil, errs.New(errs.HubNotRunning, "this Ferry keeps no long-lived browser: only the owner (the Ferry app, or `ferry serve`) does").
			WithHint("start the Ferry app, or `ferry serve`")
	}
	return s.browser, nil
}

// BrowserState describes the owner's browser without connecting it.
// Errors: errs.HubForbidden for an agent; errs.HubNotRunning without an
// owner's browser.
func (s *Service) BrowserState(ctx context.Context, c service.Caller, req service.BrowserStateRequest) (service.BrowserState, error) {
	if err := admit(c, "see the browser", req); err != nil {
		return service.BrowserState{}, err
	}
	b, err := s.ownerBrowser()
	if err != nil {
		return service.BrowserState{}, err
	}
	return b.State(), nil
}

// ConnectBrowser launches the owner's browser, or attaches to the one at
// settings.browser.attachURL, unless it is connected already (with
// req.Reconnect it quits the one Ferry launched, or disconnects from an
// attached one, and connects again with the settings in force), and
// returns its state, also beside an error. Errors: as BrowserState;
// errs.BrowserNotFound, errs.BrowserLaunchFailed, errs.BadInput for an
// attach address that is not loopback.
func (s *Service) ConnectBrowser(ctx context.Context, c service.Caller, req service.ConnectBrowserRequest) (service.BrowserState, error) {
	if err := admit(c, "connect the browser", req); err != nil {
		return service.BrowserState{}, err
	}
	b, err := s.ownerBrowser()
	if err != nil {
		return service.BrowserState{}, err
	}
	switch {
	case req.Reconnect:
		_, err = b.Reconnect(ctx)
	case req.Background:
		_, err = b.GetInBackground(ctx)
	default:
		_, err = b.Get(ctx)
	}
	return b.State(), err
}

// TabStates lists the tabs of the owner's browser with their site,
// conversation and readiness; none when it is not connected (this does
// not start it). An agent sees each tab's site and readiness (whether the
// user is logged in there, what stands in the way), and which tab and
// conversation it is only for the tabs its jobs opened, or for all with
// the user's grant. Errors: as BrowserState; errs.BrowserDisconnected when
// the browser went away meanwhile; errs.ConfigInvalid for a bad site
// override; errs.HubUnauthorized for an unknown or revoked agent.
func (s *Service) TabStates(ctx context.Context, c service.Caller, req service.TabStatesRequest) ([]service.TabState, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return nil, err
	}
	ob, err := s.ownerBrowser()
	if err != nil {
		return nil, err
	}
	b := ob.Current()
	if b == nil {
		return []service.TabState{}, nil
	}
	reg, err := s.c.sites()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, tabStatesTimeout)
	defer cancel()
	list, err := tabs.States(ctx, b, reg, &s.c.ledger)
	if err != nil {
		return nil, err
	}
	out := list
	if out == nil {
		out = []service.TabState{}
	}
	for i, t := range out {
		if !sc.granted && !sc.tab(t.TargetID) {
			out[i].TargetID, out[i].Title, out[i].URL, out[i].Conversation = "", "", "", ""
		}
	}
	return out, nil
}
