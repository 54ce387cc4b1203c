//go:build gui

package guitest

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// outside is a DevTools connection of its own to the app's browser: what
// another program (or the user) does in the browser behind Ferry's back,
// and how the test checks what Ferry did there.
type outside struct {
	c  *cdp.Client
	ws *cdp.WebSocket
}

// dialOutside connects to the DevTools endpoint host:port.
func dialOutside(t *testing.T, ctx context.Context, hostport string) *outside {
	t.Helper()
	u, err := launcher.ResolveURL(hostport)
	if err != nil {
		t.Fatalf("resolve the DevTools endpoint %s: %v", hostport, err)
	}
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, u, nil); err != nil {
		t.Fatalf("connect to %s: %v", u, err)
	}
	c := cdp.New().Start(ws)
	go func() {
		for range c.Event() {
		}
	}()
	t.Cleanup(func() { _ = ws.Close() })
	return &outside{c: c, ws: ws}
}

func (o *outside) call(t *testing.T, ctx context.Context, session, method string, params, out any) {
	t.Helper()
	raw, err := o.c.Call(ctx, session, method, params)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s reply: %v", method, err)
		}
	}
}

// open opens url in a new background tab, as a program other than Ferry.
func (o *outside) open(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	var res proto.TargetCreateTargetResult
	o.call(t, ctx, "", "Target.createTarget", proto.TargetCreateTarget{URL: url, Background: true}, &res)
	return string(res.TargetID)
}

// targets lists the page targets by id with their address.
func (o *outside) targets(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	var res proto.TargetGetTargetsResult
	o.call(t, ctx, "", "Target.getTargets", proto.TargetGetTargets{}, &res)
	out := map[string]string{}
	for _, ti := range res.TargetInfos {
		if ti.Type == proto.TargetTargetInfoTypePage {
			out[string(ti.TargetID)] = ti.URL
		}
	}
	return out
}

// eval evaluates js in tab id and returns its value as a string.
func (o *outside) eval(t *testing.T, ctx context.Context, id, js string) string {
	t.Helper()
	var att proto.TargetAttachToTargetResult
	o.call(t, ctx, "", "Target.attachToTarget", proto.TargetAttachToTarget{TargetID: proto.TargetTargetID(id), Flatten: true}, &att)
	defer o.call(t, ctx, "", "Target.detachFromTarget", proto.TargetDetachFromTarget{SessionID: att.SessionID}, nil)
	var res proto.RuntimeEvaluateResult
	o.call(t, ctx, string(att.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: js, ReturnByValue: true, AwaitPromise: true}, &res)
	if res.ExceptionDetails != nil {
		t.Fatalf("evaluate %s in %s: %s", js, id, res.ExceptionDetails.Text)
	}
	return res.Result.Value.Str()
}

// waitFor polls cond every 100 ms until it holds or within passes.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestTabsFollowTheBrowserAndAct drives the Tabs view against the
// simulator with no refresh anywhere: a tab opened from outside Ferry
// appears and one closed from outside disappears; Show brings a tab to the
// front (the browser itself says which tab is visible); Close closes it;
// a logged-out tab offers Log in, which shows its login page in front, and
// once the user logged in there the row turns ready by itself.
func TestTabsFollowTheBrowserAndAct(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	srv, _, app, page := composeOnSim(t, 4*time.Minute)
	ctx := page.GetContext()

	page.MustElement(`[role=tab][data-view=tabs]`).MustClick()
	waitTitle(t, page, "Tabs")
	page.MustElement(`[data-testid=browser-connect]`).MustClick()
	page.Timeout(60 * time.Second).MustElement(`[data-testid=browser-state][data-status=connected]`)
	st := evalJSON(t, page, `() => window.go.app.Tabs.Browser()`)
	o := dialOutside(t, ctx, str(st["endpoint"]))

	row := func(id string) string { return `[data-tab="` + id + `"]` }
	hasRow := func(id string) bool {
		return page.MustEval(`(s) => !!document.querySelector(s)`, row(id)).Bool()
	}
	rowState := func(id string) string {
		return page.MustEval(`(s) => document.querySelector(s)?.dataset.state ?? ''`, row(id)).Str()
	}
	visibility := func(id string) string { return o.eval(t, ctx, id, `document.visibilityState`) }

	var first, second string
	t.Run("a tab opened outside Ferry appears without a refresh, and one closed outside disappears", func(t *testing.T) {
		first = o.open(t, ctx, "https://chatgpt.com/")
		waitFor(t, 20*time.Second, "the new tab's row", func() bool { return hasRow(first) })
		second = o.open(t, ctx, "https://chatgpt.com/")
		waitFor(t, 20*time.Second, "the second tab's row", func() bool { return hasRow(second) })
		waitFor(t, 20*time.Second, "both rows ready", func() bool { return rowState(first) == "ready" && rowState(second) == "ready" })
		gone := o.open(t, ctx, "https://gemini.google.com/app")
		waitFor(t, 20*time.Second, "the Gemini tab's row", func() bool { return hasRow(gone) })
		o.call(t, ctx, "", "Target.closeTarget", proto.TargetCloseTarget{TargetID: proto.TargetTargetID(gone)}, nil)
		waitFor(t, 20*time.Second, "the closed tab's row gone", func() bool { return !hasRow(gone) })
	})

	t.Run("Show brings that tab to the front", func(t *testing.T) {
		page.MustElement(row(first) + ` [data-testid=tab-show]`).MustClick()
		waitFor(t, 20*time.Second, "the first tab in front", func() bool { return visibility(first) == "visible" })
		if v := visibility(second); v != "hidden" {
			t.Errorf("the other tab is %s while the first is in front", v)
		}
		page.MustElement(row(second) + ` [data-testid=tab-show]`).MustClick()
		waitFor(t, 20*time.Second, "the second tab in front", func() bool { return visibility(second) == "visible" })
		if v := visibility(first); v != "hidden" {
			t.Errorf("the first tab is %s after Show on the second", v)
		}
	})

	t.Run("Close closes the tab; a second click at the same point closes no other", func(t *testing.T) {
		third := o.open(t, ctx, "https://chatgpt.com/")
		waitFor(t, 20*time.Second, "the third tab's row", func() bool { return hasRow(third) })
		box := page.MustElement(row(second) + ` [data-testid=tab-close]`).MustShape().Box()
		x, y := box.X+box.Width/2, box.Y+box.Height/2
		page.Mouse.MustMoveTo(x, y)
		page.Mouse.MustClick(proto.InputMouseButtonLeft)
		waitFor(t, 20*time.Second, "the tab closed in the browser", func() bool {
			_, open := o.targets(t, ctx)[second]
			return !open
		})
		idle := `() => !!document.querySelector('[data-testid=tab-close]:not([disabled])')`
		waitFor(t, 20*time.Second, "the list done with the close", func() bool { return page.MustEval(idle).Bool() })
		// The user clicks again where the pointer still is: the row below
		// must not have slid its × there.
		page.Mouse.MustClick(proto.InputMouseButtonLeft)
		waitFor(t, 20*time.Second, "the list done with the second click", func() bool { return page.MustEval(idle).Bool() })
		if _, open := o.targets(t, ctx)[third]; !open || !hasRow(third) {
			t.Fatalf("a second click at the same point closed another tab (open %v, row %v)", open, hasRow(third))
		}
		if page.MustEval(`(id) => document.querySelector('[data-tab="' + id + '"]')?.dataset.closed ?? ''`, second).Str() != "true" {
			t.Error("the closed tab's row did not stay in place, greyed, under the pointer")
		}
		page.Mouse.MustMoveTo(2, 2) // out of the list
		waitFor(t, 20*time.Second, "its row gone once the pointer left", func() bool { return !hasRow(second) })
		o.call(t, ctx, "", "Target.closeTarget", proto.TargetCloseTarget{TargetID: proto.TargetTargetID(third)}, nil)
		waitFor(t, 20*time.Second, "the third tab's row gone", func() bool { return !hasRow(third) })
	})

	var out string
	t.Run("a logged-out tab offers Log in, which shows its login page in front", func(t *testing.T) {
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
		out = o.open(t, ctx, "https://chatgpt.com/")
		waitFor(t, 30*time.Second, "the logged-out tab shown as needing a login", func() bool { return rowState(out) == "login" })
		if page.MustHas(row(first)+` [data-testid=tab-login]`) || !page.MustHas(row(out)+` [data-testid=tab-login]`) {
			t.Fatal("Log in is offered on the wrong rows")
		}
		if s := rowState(first); s != "ready" {
			t.Errorf("the logged-in tab's row says %s: each row's state is its own tab's", s)
		}
		savePageShot(t, page, shots, "tabs-actions.png")
		page.MustElement(row(out) + ` [data-testid=tab-login]`).MustClick()
		waitFor(t, 20*time.Second, "the tab on the login page, in front", func() bool {
			return strings.Contains(o.targets(t, ctx)[out], "/auth/login") && visibility(out) == "visible"
		})
		// The user logs in there; the row follows.
		o.eval(t, ctx, out, `document.querySelector('form').submit(), 'sent'`)
		waitFor(t, 30*time.Second, "the row ready once logged in", func() bool {
			ok := rowState(out) == "ready"
			if !ok {
				t.Logf("row %s, tab at %s, logged in %s", rowState(out), o.targets(t, ctx)[out],
					o.eval(t, ctx, out, `String(!!document.querySelector('[data-testid=create-new-chat-button]')) + ' ' + document.readyState`))
			}
			return ok
		})
	})

	t.Run("a run that fails as logged out marks its tab and its card shows the tab", func(t *testing.T) {
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
		lo := o.open(t, ctx, "https://chatgpt.com/")
		waitFor(t, 30*time.Second, "the logged-out tab's row", func() bool { return rowState(lo) == "login" })
		page.MustElement(row(first) + ` [data-testid=tab-show]`).MustClick()
		waitFor(t, 20*time.Second, "another tab in front", func() bool { return visibility(lo) == "hidden" })
		page.MustElement(row(lo) + ` [data-testid=use-in-compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[data-testid=prompt]`).MustInput("Who keeps the lighthouse?")
		page.MustElement(`[data-testid=send]`).MustClick()
		waitEval(t, page, 60*time.Second, "the run failed as logged out", `() => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.ended === 'true' && r.querySelector('[data-testid=run-problem]')?.dataset.code === 'login_required';
		}`)
		// The card names the site as Compose does (issue 19, point 4).
		card := page.MustElement(`[data-testid=live-run] [data-testid=run-problem]`).MustText()
		if !strings.Contains(card, "ChatGPT") || regexp.MustCompile(`(^|[^\w./:-])chatgpt([^\w./:-]|$)`).MatchString(card) {
			t.Errorf("the login card names the site by its id: %q", card)
		}
		page.MustElement(`[data-testid=live-run] [data-testid=run-show-tab]`).MustClick()
		waitFor(t, 20*time.Second, "the run's tab in front", func() bool { return visibility(lo) == "visible" })
		page.MustElement(`[role=tab][data-view=tabs]`).MustClick()
		waitTitle(t, page, "Tabs")
		waitFor(t, 20*time.Second, "the run's tab shown logged out", func() bool { return rowState(lo) == "login" })
		if s := rowState(first); s != "ready" {
			t.Errorf("the other tab's row says %s", s)
		}
	})

	t.Run("a browser that went away is said in the sidebar and in Tabs, without sending the user to Tabs", func(t *testing.T) {
		if !page.MustHas(`.sidebar .health.ok`) {
			t.Fatal("the sidebar does not say ready while the browser runs")
		}
		_, _ = o.c.Call(ctx, "", "Browser.close", nil) // the connection ends with the browser
		waitEval(t, page, 30*time.Second, "the sidebar saying the browser is disconnected",
			`() => document.querySelector('[data-testid=health-browser]')?.textContent.includes('Browser disconnected')`)
		if page.MustHas(`.sidebar .health.ok`) {
			t.Error("the sidebar still says ready")
		}
		page.Timeout(eventWithin).MustElement(`[data-testid=browser-state][data-status=disconnected]`)
		if txt := page.MustElement(`[data-testid=browser-state]`).MustText(); strings.Contains(txt, "Tabs view") {
			t.Errorf("the Tabs view sends the user to the Tabs view:\n%s", txt)
		}
	})

	app.stop(t)
	t.Logf("screenshots in %s", shots)
}
