package browser

import (
	"context"

	"github.com/go-rod/rod/lib/proto"
)

// The browser's windows and which tab is in front are the user's: Ferry
// works in the background. This file holds the few exceptions, each for a
// moment the user asked for (TestNoCodePathActivatesATabOrFocusesAWindow
// keeps every other file of the package from them): ShowTab, the one way a
// tab comes to the front (Log in on Get started or on a tab, a tab's Show, a
// run's "Open conversation in browser"), and MinimizeWindows.

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
		if err := b.Call(ctx, "find the tab's window", "Browser.getWindowForTarget",
			proto.BrowserGetWindowForTarget{TargetID: proto.TargetTargetID(t.ID)}, &w); err != nil {
			return err
		}
		if done[w.WindowID] {
			continue
		}
		done[w.WindowID] = true
		if err := b.Call(ctx, "minimize the browser window", "Browser.setWindowBounds", proto.BrowserSetWindowBounds{
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
		if err := b.Call(ctx, "find the tab's window", "Browser.getWindowForTarget",
			proto.BrowserGetWindowForTarget{TargetID: proto.TargetTargetID(t.ID)}, &w); err != nil {
			return nil, err
		}
		out[int(w.WindowID)] = string(w.Bounds.WindowState)
	}
	return out, nil
}

// ShowTab brings the tab targetID to the front of its window and raises
// the window (restoring it when minimized), for a tab the user asked to see
// (a tab's Show and Log in, a run's "Open conversation in browser").
// Errors: TargetNotFound for a TargetID that names no open tab;
// BrowserDisconnected.
func (b *Browser) ShowTab(ctx context.Context, targetID string) error {
	id := proto.TargetTargetID(targetID)
	if err := b.Call(ctx, "show the tab", "Target.activateTarget", proto.TargetActivateTarget{TargetID: id}, nil); err != nil {
		return notATab(err, targetID)
	}
	var win proto.BrowserGetWindowForTargetResult
	if err := b.Call(ctx, "find the tab's window", "Browser.getWindowForTarget", proto.BrowserGetWindowForTarget{TargetID: id}, &win); err != nil {
		// A headless browser has no window to raise: the tab is in front.
		return nil
	}
	if win.Bounds != nil && win.Bounds.WindowState == proto.BrowserWindowStateMinimized {
		_ = b.Call(ctx, "restore the tab's window", "Browser.setWindowBounds", proto.BrowserSetWindowBounds{
			WindowID: win.WindowID, Bounds: &proto.BrowserBounds{WindowState: proto.BrowserWindowStateNormal}}, nil)
	}
	return nil
}
