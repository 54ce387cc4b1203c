package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// openTabTimeout bounds opening a tab, the browser's start included.
const openTabTimeout = time.Minute

// Tabs is the frontend's API for the owner's browser and its tabs.
type Tabs struct {
	sh *shell
}

// Browser returns the owner's browser's state without connecting. Errors:
// why the core or the job runner is not open.
func (t *Tabs) Browser() (service.BrowserState, error) {
	return t.connect(nil)
}

// Connect launches Ferry's browser, or attaches to the one at
// settings.browser.attachURL, unless it is connected already, and returns
// its state. Errors: browser_not_found, browser_launch_failed, bad_input
// for an attach address that is not loopback.
func (t *Tabs) Connect() (service.BrowserState, error) {
	return t.connect(&service.ConnectBrowserRequest{})
}

// Reconnect quits the browser Ferry launched (or disconnects from an
// attached one) and connects again with the settings in force. Errors: as
// Connect.
func (t *Tabs) Reconnect() (service.BrowserState, error) {
	return t.connect(&service.ConnectBrowserRequest{Reconnect: true})
}

// connect asks for the browser's state, connecting it first per req when
// req is not nil.
func (t *Tabs) connect(req *service.ConnectBrowserRequest) (service.BrowserState, error) {
	var out service.BrowserState
	err := t.sh.withService(func(svc service.Service) error {
		var err error
		if req == nil {
			out, err = svc.BrowserState(context.Background(), desktopCaller, service.BrowserStateRequest{})
		} else {
			out, err = svc.ConnectBrowser(t.sh.calls, desktopCaller, *req)
		}
		return err
	})
	return out, err
}

// List returns the tabs of the owner's browser with their site,
// conversation and readiness (ready, login, interstitial with its message,
// stale, other). An unconnected browser has no tabs: List does not start
// one. Errors: browser_disconnected when the browser went away meanwhile;
// config_invalid for a bad site override.
func (t *Tabs) List() ([]service.TabState, error) {
	out := []service.TabState{}
	err := t.sh.withService(func(svc service.Service) error {
		tabs, err := svc.TabStates(context.Background(), desktopCaller, service.TabStatesRequest{})
		if tabs != nil {
			out = tabs
		}
		return err
	})
	return out, err
}

// Open opens site siteID's new-chat address in a new background tab
// (connecting the browser first if needed) and returns the tab. Errors:
// unknown_site; the browser's envelopes (navigation_aborted, timeout).
func (t *Tabs) Open(siteID string) (service.TabState, error) {
	var out service.TabState
	err := t.sh.withService(func(svc service.Service) error {
		ctx := t.sh.calls
		tab, err := svc.OpenTab(ctx, desktopCaller, service.OpenTabRequest{Site: siteID, TimeoutMs: openTabTimeout.Milliseconds()})
		if err != nil {
			return err
		}
		tabs, err := svc.TabStates(ctx, desktopCaller, service.TabStatesRequest{})
		if err != nil {
			return err
		}
		for _, ts := range tabs {
			if ts.TargetID == tab.TargetID {
				out = ts
				return nil
			}
		}
		return errs.New(errs.TargetNotFound, "the new %s tab closed at once", siteID)
	})
	return out, err
}

// Show brings tab targetID to the front and raises the browser's window:
// the one time Ferry puts the browser in front, because the user asked.
// It returns the tab then. Errors: browser_disconnected;
// target_not_found for a tab that was closed.
func (t *Tabs) Show(targetID string) (service.TabState, error) {
	return t.act(targetID, service.TabActionShow)
}

// Close closes tab targetID. Errors: as Show.
func (t *Tabs) Close(targetID string) error {
	_, err := t.act(targetID, service.TabActionClose)
	return err
}

// Login shows tab targetID on its site's login page, in front, and
// returns the tab then. Errors: as Show; unknown_site for a tab of no
// known site.
func (t *Tabs) Login(targetID string) (service.TabState, error) {
	return t.act(targetID, service.TabActionLogin)
}

// act does action on tab targetID through the Service.
func (t *Tabs) act(targetID, action string) (service.TabState, error) {
	var out service.TabState
	err := t.sh.withService(func(svc service.Service) error {
		ctx, cancel := context.WithTimeout(t.sh.calls, openTabTimeout)
		defer cancel()
		res, err := svc.TabAction(ctx, desktopCaller, service.TabActionRequest{TargetID: targetID, Action: action})
		out = res.Tab
		return err
	})
	return out, err
}
