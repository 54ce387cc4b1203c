package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
)

// listTimeout bounds a tab listing (each tab's probe is bounded too).
const listTimeout = 15 * time.Second

// Tabs is the frontend's API for the controlled browser and its tabs.
type Tabs struct {
	sh *shell
}

// Browser returns the controlled browser's state without connecting.
// Errors: why the core or the job runner is not open.
func (t *Tabs) Browser() (BrowserState, error) {
	var out BrowserState
	err := t.sh.withHub(func(c *core.Core, h *ownerHub) error {
		out = h.browser.State()
		return nil
	})
	return out, err
}

// Connect launches Ferry's browser, or attaches to the one at
// settings.browser.attachURL, unless it is connected already, and returns
// its state. Errors: browser_not_found, browser_launch_failed, bad_input
// for an attach address that is not loopback.
func (t *Tabs) Connect() (BrowserState, error) {
	var out BrowserState
	err := t.sh.withHub(func(c *core.Core, h *ownerHub) error {
		_, err := h.browser.Get(context.Background())
		out = h.browser.State()
		return err
	})
	return out, err
}

// Reconnect quits the browser Ferry launched (or disconnects from an
// attached one) and connects again with the settings in force. Errors: as
// Connect.
func (t *Tabs) Reconnect() (BrowserState, error) {
	var out BrowserState
	err := t.sh.withHub(func(c *core.Core, h *ownerHub) error {
		_, err := h.browser.Reconnect(context.Background())
		out = h.browser.State()
		return err
	})
	return out, err
}

// List returns the tabs of the controlled browser with their site,
// conversation and readiness (ready, login, interstitial with its message,
// stale, other). An unconnected browser has no tabs: List does not start
// one. Errors: browser_disconnected when the browser went away meanwhile;
// config_invalid for a bad site override.
func (t *Tabs) List() ([]core.TabState, error) {
	out := []core.TabState{}
	err := t.sh.withHub(func(c *core.Core, h *ownerHub) error {
		b := h.browser.current()
		if b == nil {
			return nil
		}
		reg, err := c.Sites()
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
		defer cancel()
		out, err = core.TabStates(ctx, b, reg)
		return err
	})
	return out, err
}

// Open opens site siteID's new-chat address in a new background tab
// (connecting the browser first if needed) and returns the tab. Errors:
// unknown_site; the browser's envelopes (navigation_aborted, timeout).
func (t *Tabs) Open(siteID string) (core.TabState, error) {
	var out core.TabState
	err := t.sh.withHub(func(c *core.Core, h *ownerHub) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		b, err := h.browser.Get(ctx)
		if err != nil {
			return err
		}
		reg, err := c.Sites()
		if err != nil {
			return err
		}
		p, _, err := core.OpenSiteTab(ctx, b, reg, siteID)
		if err != nil {
			return err
		}
		tabs, err := core.TabStates(ctx, b, reg)
		if err != nil {
			return err
		}
		for _, ts := range tabs {
			if ts.TargetID == p.ID() {
				out = ts
				return nil
			}
		}
		return errs.New(errs.TargetNotFound, "the new %s tab closed at once", siteID)
	})
	return out, err
}
