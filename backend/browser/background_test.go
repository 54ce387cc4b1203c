package browser

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Ferry works in the background: no code path may bring a tab to the
// front or focus a window. This guards the package's sources, and those of
// the packages under it (launch, posted, fetch, …), against the CDP methods
// that would. Focus emulation, which changes what one tab
// believes without touching the window or the tab in front, is allowed in
// focus.go alone, where every hold is released. front.go alone may show a
// tab or change a window, for what the user asked to see:
// Target.activateTarget once and Browser.setWindowBounds (ShowTab: "Log in"
// on Get started and on a tab, a tab's Show, "Open conversation in
// browser"; MinimizeWindows: a browser the quick prompt starts comes up
// minimized, out of the user's way). Page.bringToFront is used nowhere.
func TestNoCodePathActivatesATabOrFocusesAWindow(t *testing.T) {
	forbidden := []string{"Page.bringToFront", "PageBringToFront", "Target.activateTarget", "TargetActivateTarget",
		"Browser.setWindowBounds", "newWindow", "EmulationSetFocusEmulationEnabled"}
	const emulation = "Emulation.setFocusEmulationEnabled"
	files, _ := filepath.Glob("*.go")
	under, _ := filepath.Glob("*/*.go")
	files = append(files, under...)
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if f == "front.go" {
			if n := strings.Count(string(src), `"Target.activateTarget"`); n != 1 {
				t.Errorf("front.go should activate a tab in exactly one place (ShowTab), found %d", n)
			}
		}
		for _, m := range forbidden {
			if f == "front.go" && (m == "Target.activateTarget" || m == "TargetActivateTarget" || m == "Browser.setWindowBounds") {
				continue
			}
			if strings.Contains(string(src), m) {
				t.Errorf("%s uses %s", f, m)
			}
		}
		if f != "focus.go" && strings.Contains(string(src), emulation) {
			t.Errorf("%s uses %s outside focus.go", f, emulation)
		}
		if f == "focus.go" && strings.Count(string(src), emulation+`", focusEmulation{Enabled: true}`) != 1 {
			t.Errorf("focus.go should turn focus emulation on in exactly one place (HoldInput)")
		}
	}
	if checked < 10 {
		t.Fatalf("only %d source files checked", checked)
	}
}

// A tab in the background draws no frames, and Chromium dispatches mouse
// moves at the next frame (or after a 5 s fallback): a click that awaited its
// move took 5 s there. Clicks and typing in such a tab must be fast, trusted,
// and must leave which tab is in front alone.
func TestClickAndTypeInABackgroundTabAreFastTrustedAndActivateNothing(t *testing.T) {
	ctx := testCtx(t, 30*time.Second)
	bc, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bc.Dispose(testCtx(t, 10*time.Second)) })
	front, err := bc.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := front.Navigate(ctx, fixture.URL+"/blank.html"); err != nil {
		t.Fatal(err)
	}
	back, err := bc.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Navigate(ctx, fixture.URL+"/editors.html"); err != nil {
		t.Fatal(err)
	}
	visibility := func(p *Page) string {
		t.Helper()
		var s string
		if err := p.EvalInto(ctx, &s, `() => document.visibilityState`); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if f, b := visibility(front), visibility(back); f != "visible" || b != "hidden" {
		t.Fatalf("before: front tab %s, back tab %s; want visible and hidden", f, b)
	}
	if _, err := back.Eval(ctx, `() => {
  window.seen = [];
  for (const type of ['mousemove', 'mousedown', 'mouseup', 'click', 'beforeinput', 'keydown'])
    document.addEventListener(type, (e) => window.seen.push(type + (e.isTrusted ? '' : ' (untrusted)')), true);
}`); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	if _, err := back.Click(ctx, "#covered"); err != nil {
		t.Fatalf("click: %v", err)
	}
	clicked := time.Since(start)
	if err := back.Type(ctx, "#react", prompt, InsertText); err != nil {
		t.Fatalf("type: %v", err)
	}
	typed := time.Since(start) - clicked
	if err := back.Press(ctx, Enter); err != nil {
		t.Fatalf("press: %v", err)
	}
	took := time.Since(start)
	t.Logf("in a background tab: click %v, type (with its click) %v, enter %v; in all %v", clicked, typed, took-clicked-typed, took)
	// Not a speed target (that figure is in README): awaiting a hidden
	// tab's mouse move costs blink's 5 s fallback timer per click, so the
	// defect takes at least 10 s for the two clicks here; a loaded machine
	// takes about 1 s.
	if took >= moveFallback {
		t.Errorf("click, type and enter took %v in a background tab: at least one click waited on the hidden tab's mouse move (%v fallback)", took, moveFallback)
	}

	var got struct {
		Seen   []string `json:"seen"`
		Clicks []struct {
			ID      string `json:"id"`
			Trusted bool   `json:"trusted"`
		} `json:"clicks"`
		Model string `json:"model"`
	}
	if err := back.EvalInto(ctx, &got, `() => ({seen: window.seen, clicks: window.clicks, model: window.model.react})`); err != nil {
		t.Fatal(err)
	}
	if len(got.Clicks) != 1 || got.Clicks[0].ID != "covered" || !got.Clicks[0].Trusted {
		t.Errorf("button clicks %+v, want one trusted", got.Clicks)
	}
	if n := strings.Count(strings.Join(got.Seen, ","), "click"); n != 2 {
		t.Errorf("events %v, want two clicks (the button, then the composer)", got.Seen)
	}
	// The page sees a user's sequence: the move arrives before the press.
	want := []string{"mousemove", "mousedown", "mouseup", "click"}
	if len(got.Seen) < len(want) || strings.Join(got.Seen[:4], ",") != strings.Join(want, ",") {
		t.Errorf("events %v, want them to start with %v", got.Seen, want)
	}
	for _, e := range got.Seen {
		if strings.HasSuffix(e, "(untrusted)") {
			t.Errorf("the page saw an untrusted %s", e)
		}
	}
	for _, e := range []string{"beforeinput", "keydown"} {
		if !slices.Contains(got.Seen, e) {
			t.Errorf("no trusted %s reached the page: %v", e, got.Seen)
		}
	}
	if normalizeSpace(got.Model) != normalizeSpace(prompt) {
		t.Errorf("the framework's model holds %q, want the prompt and a newline", got.Model)
	}
	if f, b := visibility(front), visibility(back); f != "visible" || b != "hidden" {
		t.Errorf("after: front tab %s, back tab %s; the back tab must not come to the front", f, b)
	}
}

// moveFallback is blink's fallback timer for a mouse move queued for an
// animation frame that a hidden tab never draws.
const moveFallback = 5 * time.Second
