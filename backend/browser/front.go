package browser

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// The browser's windows and which tab is in front are the user's: Ferry
// works in the background. This file holds the few exceptions, each for a
// moment the user asked for (TestNoCodePathActivatesATabOrFocusesAWindow
// keeps every other file of the package from them).

// BringToFront shows the tab in front of its window and raises the window:
// the one exception to Ferry working in the background, for the moment the
// user asked to see the tab (logging in to a site from the Get started
// view). Nothing else may call it (TestNoCodePathActivatesATabOrFocusesAWindow
// holds this file to this one call). Errors: the page's envelopes
// (TargetNotFound, TargetCrashed, BrowserDisconnected, Timeout, Cancelled).
func (p *Page) BringToFront(ctx context.Context) error {
	return p.Exec(ctx, "Page.bringToFront", struct{}{}, nil)
}

// MinimizeWindows minimizes every window of the browser that holds a tab,
// so a browser Ferry started on the user's behalf (a run from the quick
// prompt, say) does not come up over what the user is doing. A window
// manager that does not minimize leaves the window as it is; that is no
// error. Errors: BrowserDisconnected when the connection is gone; Internal
// when the browser refuses.
func (b *Browser) MinimizeWindows(ctx context.Context) error {
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return err
	}
	done := map[proto.BrowserWindowID]bool{}
	for _, t := range targets {
		var w proto.BrowserGetWindowForTargetResult
		if err := b.call(ctx, "find the tab's window", "Browser.getWindowForTarget",
			proto.BrowserGetWindowForTarget{TargetID: proto.TargetTargetID(t.ID)}, &w); err != nil {
			return err
		}
		if done[w.WindowID] {
			continue
		}
		done[w.WindowID] = true
		if err := b.call(ctx, "minimize the browser window", "Browser.setWindowBounds", proto.BrowserSetWindowBounds{
			WindowID: w.WindowID, Bounds: &proto.BrowserBounds{WindowState: proto.BrowserWindowStateMinimized},
		}, nil); err != nil {
			return err
		}
	}
	return nil
}

// WindowStates lists the state (normal, minimized, maximized, fullscreen)
// of each window that holds a tab, by window id. Errors: as
// MinimizeWindows.
func (b *Browser) WindowStates(ctx context.Context) (map[int]string, error) {
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for _, t := range targets {
		var w proto.BrowserGetWindowForTargetResult
		if err := b.call(ctx, "find the tab's window", "Browser.getWindowForTarget",
			proto.BrowserGetWindowForTarget{TargetID: proto.TargetTargetID(t.ID)}, &w); err != nil {
			return nil, err
		}
		out[int(w.WindowID)] = string(w.Bounds.WindowState)
	}
	return out, nil
}

// ShowTab brings tab targetID to the front of its window and that window up
// (out of the minimized state): the one thing Ferry does in the user's face,
// when the user asked to see the tab. Errors: TargetNotFound-class
// envelopes from the browser for a tab that is gone; BrowserDisconnected.
func (b *Browser) ShowTab(ctx context.Context, targetID string) error {
	id := proto.TargetTargetID(targetID)
	if err := b.call(ctx, "show the tab", "Target.activateTarget", proto.TargetActivateTarget{TargetID: id}, nil); err != nil {
		return err
	}
	var w proto.BrowserGetWindowForTargetResult
	if err := b.call(ctx, "find the tab's window", "Browser.getWindowForTarget", proto.BrowserGetWindowForTarget{TargetID: id}, &w); err != nil {
		return err
	}
	if w.Bounds != nil && w.Bounds.WindowState == proto.BrowserWindowStateNormal {
		return nil
	}
	return b.call(ctx, "raise the browser window", "Browser.setWindowBounds", proto.BrowserSetWindowBounds{
		WindowID: w.WindowID, Bounds: &proto.BrowserBounds{WindowState: proto.BrowserWindowStateNormal},
	}, nil)
}
