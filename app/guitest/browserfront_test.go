//go:build gui

package guitest

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// rootWindows reads a window-list property of the root window
// (_NET_ACTIVE_WINDOW, _NET_CLIENT_LIST_STACKING) on display as decimal
// window ids, bottom to top for the stacking list.
func rootWindows(t *testing.T, ctx context.Context, display, prop string) []string {
	t.Helper()
	out, err := xpropOn(ctx, display, "-root", prop)
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(out, "#")
	if !ok {
		return nil
	}
	var ids []string
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" {
			ids = append(ids, hexToDecimal(t, f))
		}
	}
	return ids
}

// TestASendLeavesFerryInFrontOfTheBrowser: on a desktop with a window
// manager, Ferry's window is on top and focused while the site's tab is the
// browser's active tab (the user looked at it, then came back to Ferry); a
// send from Compose completes, and Ferry's window is still on top and still
// has the focus: Ferry never raises the browser unless asked (issue 26,
// point 4).
func TestASendLeavesFerryInFrontOfTheBrowser(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	display := displayWithWM(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	srv := sim.New()
	if err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	writeHeadfulSettings(t, dir, srv, nil)
	app := startDevAppEnv(t, bin, dir, []string{"DISPLAY=" + display})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	page := openShell(t, b, app.url).Context(ctx)
	page.MustElement(`[role=tab][data-view=compose]`).MustClick()
	waitTitle(t, page, "Compose")
	page.MustWait(`() => [...document.querySelectorAll('[data-testid=compose-site] option')].some(o => o.value === 'chatgpt')`)
	page.MustEval(`() => { const s = document.querySelector('[data-testid=compose-site]'); s.value = 'chatgpt'; s.dispatchEvent(new Event('change', {bubbles: true})); }`)

	ferry, err := waitWindowOn(ctx, display, "Ferry")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := xdotoolOn(ctx, display, "windowactivate", "--sync", ferry); err != nil {
		t.Fatal(err)
	}

	// The first send starts the browser and opens the site's tab: the
	// browser comes up minimized, and Ferry's window keeps the focus.
	sendAndWait(t, page, srv, "Which ferry crosses the river first?", "Which ferry crosses the river first?", "That is the whole answer.")
	if all, _ := xdotoolOn(ctx, display, "search", "--class", "chromium"); all == "" {
		t.Fatal("the first send left no browser window on the display: was the browser started headful?")
	}
	waitFor(t, 20*time.Second, "the browser Ferry launched to stay minimized, Ferry's window active", func() bool {
		active := rootWindows(t, ctx, display, "_NET_ACTIVE_WINDOW")
		shown, _ := xdotoolOn(ctx, display, "search", "--onlyvisible", "--class", "chromium")
		return len(active) == 1 && active[0] == ferry && shown == ""
	})

	// The user looks at the site's tab in the browser (it becomes the
	// active tab, the browser's window comes up), then goes back to Ferry.
	ab := appBrowser(t, page)
	var tab *rod.Page
	pages, err := ab.Pages()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if info, err := p.Info(); err == nil && strings.HasPrefix(info.URL, "https://chatgpt.com") {
			tab = p
		}
	}
	if tab == nil {
		t.Fatalf("the app's browser has no ChatGPT tab after a send (%d tabs)", len(pages))
	}
	if err := (proto.TargetActivateTarget{TargetID: tab.TargetID}).Call(ab); err != nil {
		t.Fatal(err)
	}
	if _, err := xdotoolOn(ctx, display, "windowactivate", "--sync", ferry); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "Ferry's window to be active and on top", func() bool {
		active, stack := rootWindows(t, ctx, display, "_NET_ACTIVE_WINDOW"), rootWindows(t, ctx, display, "_NET_CLIENT_LIST_STACKING")
		return len(active) == 1 && active[0] == ferry && len(stack) > 0 && stack[len(stack)-1] == ferry
	})
	if v := tab.MustEval(`() => document.visibilityState`).Str(); v != "visible" {
		t.Fatalf("the ChatGPT tab is %s, want visible: the active tab of its window", v)
	}
	if len(rootWindows(t, ctx, display, "_NET_CLIENT_LIST_STACKING")) < 2 {
		t.Fatal("the browser's window is not on the display")
	}

	sendAndWait(t, page, srv, "And which ferry crosses it last?", "And which ferry crosses it last?", "That is the whole answer.")

	active, stack := rootWindows(t, ctx, display, "_NET_ACTIVE_WINDOW"), rootWindows(t, ctx, display, "_NET_CLIENT_LIST_STACKING")
	if len(active) != 1 || active[0] != ferry {
		t.Errorf("after the send the active window is %v, want Ferry's %s", active, ferry)
	}
	if len(stack) == 0 || stack[len(stack)-1] != ferry {
		t.Errorf("after the send the windows stack %v (bottom to top), want Ferry's %s on top", stack, ferry)
	}
	if v := tab.MustEval(`() => document.visibilityState`).Str(); v != "visible" {
		t.Errorf("the ChatGPT tab is %s after the send, want still the browser's active tab", v)
	}
}

// xpropOn runs xprop on display and returns its trimmed output.
func xpropOn(ctx context.Context, display string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "xprop", append([]string{"-display", display}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("xprop %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// hexToDecimal turns xprop's 0x… window id into xdotool's decimal one.
func hexToDecimal(t *testing.T, hex string) string {
	t.Helper()
	n, err := strconv.ParseUint(strings.TrimPrefix(hex, "0x"), 16, 64)
	if err != nil {
		t.Fatalf("window id %q: %v", hex, err)
	}
	return strconv.FormatUint(n, 10)
}
