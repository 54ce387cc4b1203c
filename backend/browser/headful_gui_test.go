//go:build gui

// These tests need a display: a headful Chromium behaves differently from
// a headless one for tabs in the background. Run them under Xvfb:
//
//	xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- go test -tags gui ./backend/browser/ -run Headful

package browser

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/launch"
)

// headful launches a headful Chromium on a fresh profile, closed with the
// test, and returns it with its first tab (the one in front) showing the
// blank fixture.
func headful(t *testing.T, ctx context.Context) (*Browser, *Page) {
	t.Helper()
	b, err := Launch(ctx, t.TempDir(), launch.WithBinary(testBinary))
	if err != nil {
		t.Fatalf("launch a headful browser (is there a display?): %v", err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	tabs, err := b.Targets(ctx, nil)
	if err != nil || len(tabs) == 0 {
		t.Fatalf("list the first tab: %v (%d tabs)", err, len(tabs))
	}
	front, err := b.Page(ctx, tabs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := front.Navigate(ctx, fixture.URL+"/editors.html"); err != nil {
		t.Fatal(err)
	}
	return b, front
}

// backTab opens the editors fixture in a new background tab of b's window.
func backTab(t *testing.T, ctx context.Context, b *Browser) *Page {
	t.Helper()
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, fixture.URL+"/editors.html"); err != nil {
		t.Fatal(err)
	}
	return p
}

// recordInput makes the page record every input event it receives, with
// the visibility changes.
const recordInput = `() => {
  window.seen = []; window.visibility = [];
  document.addEventListener('visibilitychange', () => window.visibility.push(document.visibilityState));
  for (const type of ['mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'beforeinput'])
    document.addEventListener(type, (e) => window.seen.push(type + (e.isTrusted ? '' : ' (untrusted)')), true);
}`

type recorded struct {
	Seen       []string `json:"seen"`
	Visibility []string `json:"visibility"`
	Clicks     int      `json:"clicks"`
	Model      string   `json:"model"`
	State      string   `json:"state"`
	Focus      bool     `json:"focus"`
}

func record(t *testing.T, ctx context.Context, p *Page) recorded {
	t.Helper()
	var r recorded
	if err := p.EvalInto(ctx, &r, `() => ({seen: window.seen, visibility: window.visibility, clicks: window.clicks.length,
  model: window.model.react, state: document.visibilityState, focus: document.hasFocus()})`); err != nil {
		t.Fatal(err)
	}
	return r
}

// The premise of HoldInput: a headful Chromium drops presses and key events
// sent over CDP to a tab that was never shown. If this starts failing, the
// Chromium in use delivers such input by itself, and the hold is a
// precaution rather than a necessity.
func TestHeadfulChromiumDropsRawInputToATabNeverShown(t *testing.T) {
	ctx := testCtx(t, 60*time.Second)
	b, _ := headful(t, ctx)
	back := backTab(t, ctx, b)
	if _, err := back.Eval(ctx, recordInput); err != nil {
		t.Fatal(err)
	}
	// The raw sequence Click sends, without the hold.
	var pt Point
	if err := back.EvalInto(ctx, &pt, `() => { const r = document.getElementById('covered').getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2}; }`); err != nil {
		t.Fatal(err)
	}
	if err := back.clickAt(ctx, pt); err != nil {
		t.Fatal(err)
	}
	if err := back.press(ctx, Enter); err != nil {
		t.Fatal(err)
	}
	got := record(t, ctx, back)
	if got.Clicks != 0 || slices.Contains(got.Seen, "mousedown") || slices.Contains(got.Seen, "keydown") {
		t.Fatalf("the never-shown tab received %v (%d clicks) without a hold", got.Seen, got.Clicks)
	}
}

// Ferry's tabs sit behind the user's: a click, typing and Enter there must
// reach the page as trusted input, and the tab in front must stay in front
// and receive none of it.
func TestHeadfulBackgroundTabTakesInputAndTheFrontTabStaysInFront(t *testing.T) {
	ctx := testCtx(t, 60*time.Second)
	b, front := headful(t, ctx)
	back := backTab(t, ctx, b)
	for _, p := range []*Page{front, back} {
		if _, err := p.Eval(ctx, recordInput); err != nil {
			t.Fatal(err)
		}
	}
	before := record(t, ctx, front)
	if s := record(t, ctx, back).State; before.State != "visible" || s != "hidden" {
		t.Fatalf("before: front tab %s, back tab %s; want visible and hidden", before.State, s)
	}

	start := time.Now()
	release, err := back.HoldInput(ctx)
	if err != nil {
		t.Fatal(err)
	}
	held := time.Since(start)
	if _, err := back.Click(ctx, "#covered"); err != nil {
		t.Fatalf("click: %v", err)
	}
	if err := back.Type(ctx, "#react", prompt, InsertText); err != nil {
		t.Fatalf("type: %v", err)
	}
	if err := back.Press(ctx, Enter); err != nil {
		t.Fatalf("press: %v", err)
	}
	during := record(t, ctx, front)
	t0 := time.Now()
	release()
	released := time.Since(t0)
	took := time.Since(start)
	t.Logf("headful background tab: hold %v, click+type+enter %v, release %v; in all %v", held, took-held-released, released, took)

	got := record(t, ctx, back)
	if got.Clicks != 1 {
		t.Errorf("the button saw %d clicks, want 1 (events %v)", got.Clicks, got.Seen)
	}
	for _, e := range []string{"mousedown", "mouseup", "click", "keydown", "beforeinput"} {
		if !slices.Contains(got.Seen, e) {
			t.Errorf("no trusted %s reached the back tab: %v", e, got.Seen)
		}
	}
	if strings.Contains(strings.Join(got.Seen, ","), "untrusted") {
		t.Errorf("the back tab saw untrusted events: %v", got.Seen)
	}
	if normalizeSpace(got.Model) != normalizeSpace(prompt) {
		t.Errorf("the framework's model holds %q, want the prompt", got.Model)
	}
	// Shown for the hold only: hidden again once it is released.
	if got.State != "hidden" || strings.Join(got.Visibility, ",") != "visible,hidden" {
		t.Errorf("the back tab is %s after the hold with visibility changes %v; want hidden after one visible,hidden", got.State, got.Visibility)
	}
	after := record(t, ctx, front)
	for _, r := range []recorded{during, after} {
		if r.State != "visible" || len(r.Visibility) != 0 || r.Focus != before.Focus {
			t.Errorf("the front tab went %s (changes %v, focus %v, was %v); it must stay in front as it was", r.State, r.Visibility, r.Focus, before.Focus)
		}
	}
	if len(after.Seen) != 0 || after.Clicks != 0 || after.Model != "" {
		t.Errorf("input leaked into the front tab: %v, %d clicks, model %q", after.Seen, after.Clicks, after.Model)
	}
	tabs, err := b.Targets(ctx, nil)
	if err != nil || len(tabs) != 2 {
		t.Errorf("the browser has %d tabs (%v), want the same 2", len(tabs), err)
	}
}

// The emulation belongs to Ferry's session with the tab: a Ferry that dies
// in the middle of a hold (its connection dropping) leaves the tab hidden,
// not shown for good.
func TestHeadfulHoldEndsWithTheConnectionThatTookIt(t *testing.T) {
	ctx := testCtx(t, 60*time.Second)
	b, front := headful(t, ctx)
	back := backTab(t, ctx, b)

	other, err := Attach(ctx, b.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	p, err := other.Page(ctx, back.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.HoldInput(ctx); err != nil {
		t.Fatal(err)
	}
	if s := record(t, ctx, back).State; s != "visible" {
		t.Fatalf("during the hold the back tab is %s, want visible", s)
	}
	_ = other.Close(ctx) // an attached browser: only the connection drops
	deadline := time.Now().Add(3 * time.Second)
	for {
		got := record(t, ctx, back)
		if got.State == "hidden" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("3 s after the holder's connection dropped the back tab is still %s", got.State)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s := record(t, ctx, front).State; s != "visible" {
		t.Fatalf("the front tab is %s, want visible", s)
	}
}
