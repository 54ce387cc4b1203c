package browser

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-rod/rod/lib/proto"
)

// A click in the tab a headful window shows.
//
// Chromium raises and focuses a window when a pointer press or a touch
// reaches the tab it shows, whoever sent it: the browser process asks the
// window manager to activate the window before the page sees the event
// (measured under Xvfb with and without openbox, Chromium 156: a press over
// CDP moved _NET_ACTIVE_WINDOW, or the X focus, to the browser even while
// the page's renderer was busy and even when the page cancelled the press;
// key events, Input.insertText, focus emulation and script did not). A tab
// in the background, or in a minimized window, takes presses under focus
// emulation without it. So in the tab in front Ferry clicks the way a
// keyboard does, which never activates the window: an editor is focused
// from the page (focusing it is the click); a control the keyboard
// activates (a button, a link, a checkbox) is focused and gets Enter or
// Space, which the page receives as a trusted key press followed by the
// trusted click it causes; any other element (a div that only listens to
// clicks) gets a one-off access key, and the browser's access-key press
// (Alt and the key, as a system character) dispatches a trusted click on
// it. Neither sends pointerdown or mousedown.

// keyAimJS decides how the keyboard reaches the element: 'edit' (a text
// field or an editor, now focused), 'enter' or 'space' (a control the key
// activates, now focused), or 'access' (any other element, given the access
// key it returns). For a key it arms a one-shot probe that records whether
// a trusted key press or click reached the element.
const keyAimJS = `(sel) => {` + findJS + `
  const found = __find(sel);
  if (!found) return {mode: ''};
  const texty = (e) => e.tagName === 'TEXTAREA' || e.isContentEditable ||
    (e.tagName === 'INPUT' && !['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'color', 'range'].includes(e.type));
  if (texty(found)) {
    found.focus();
    const a = document.activeElement;
    if (a === found || found.contains(a)) return {mode: 'edit'};
  }
  const probe = {down: false, key: '', had: null};
  let el = found.closest('button, a[href], summary, input[type=button], input[type=submit], input[type=reset], input[type=image], input[type=checkbox], input[type=radio]');
  let mode = '';
  if (el && !el.disabled) {
    el.focus();
    if (document.activeElement === el) mode = (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) ? 'space' : 'enter';
  }
  if (!mode) {
    el = found;
    const used = new Set([...document.querySelectorAll('[accesskey]')].map((e) => e.getAttribute('accesskey').toLowerCase()));
    probe.key = [...'qzxjkvwybmgpfhdlucnrtseoai'].find((c) => !used.has(c)) || '';
    if (!probe.key) return {mode: ''};
    probe.had = el.getAttribute('accesskey');
    el.setAttribute('accesskey', probe.key);
    mode = 'access';
  }
  const type = mode === 'access' ? 'click' : 'keydown';
  const seen = (e) => { if (e.isTrusted && (e.target === el || el.contains(e.target))) probe.down = true; };
  addEventListener(type, seen, true);
  probe.off = () => {
    removeEventListener(type, seen, true);
    if (!probe.key) return;
    if (probe.had === null) el.removeAttribute('accesskey');
    else el.setAttribute('accesskey', probe.had);
  };
  window.__ferryKeyProbe = probe;
  return {mode, key: probe.key};
}`

// keyProbeJS reads whether the key press (or the access key's click)
// reached the element, and removes the probe and the access key. A
// document that went away (the click navigated) counts as reached.
const keyProbeJS = `() => {
  const probe = window.__ferryKeyProbe;
  if (!probe) return true;
  probe.off();
  delete window.__ferryKeyProbe;
  return probe.down;
}`

// accessKey is the browser's access-key press for key: Alt and the key as
// a system character (the modifier Chromium uses on Linux and Windows).
func accessKey(key string) proto.InputDispatchKeyEvent {
	code := "Key" + strings.ToUpper(key)
	return proto.InputDispatchKeyEvent{
		Type: proto.InputDispatchKeyEventTypeChar, Text: key, UnmodifiedText: key, Key: key, Code: code,
		WindowsVirtualKeyCode: int(strings.ToUpper(key)[0]), Modifiers: 1, IsSystemKey: true,
	}
}

var space = Key{Key: " ", Code: "Space", KeyCode: 32, Text: " "}

// keyClick clicks the element the keyboard's way (see above) when the tab
// is shown by a headful window; handled is false when the pointer must do
// it (the tab is not in front, or the keyboard cannot reach the element).
// Errors: as Click's.
func (p *Page) keyClick(ctx context.Context, sel string) (pt Point, handled bool, err error) {
	if !p.inFront() {
		return Point{}, false, nil
	}
	l, err := p.locate(ctx, sel)
	if err != nil {
		return Point{}, true, err
	}
	if !l.Found {
		return Point{}, true, notFound(sel)
	}
	if l.Covered {
		return Point{}, true, &ObscuredError{Selector: sel, By: l.Hit}
	}
	var aim struct {
		Mode string `json:"mode"`
		Key  string `json:"key"`
	}
	if err := p.EvalInto(ctx, &aim, keyAimJS, sel); err != nil {
		return Point{}, true, err
	}
	pt = Point{l.X, l.Y}
	switch aim.Mode {
	case "edit":
		return pt, true, nil
	case "enter":
		err = p.press(ctx, Enter)
	case "space":
		err = p.press(ctx, space)
	case "access":
		err = p.Exec(ctx, "Input.dispatchKeyEvent", accessKey(aim.Key), nil)
	default:
		return Point{}, false, nil
	}
	if err != nil {
		return Point{}, true, err
	}
	var reached bool
	if err := p.EvalInto(ctx, &reached, keyProbeJS); err != nil {
		if p.Err() != nil || ctx.Err() != nil {
			return Point{}, true, err
		}
		return pt, true, nil // the key navigated the document away: it landed
	}
	if !reached {
		return Point{}, true, fmt.Errorf("click %s: %w", sel, ErrNotDelivered)
	}
	return pt, true, nil
}

// inFront reports, during a hold, whether the tab was shown by a headful
// window when the hold began (the active tab of a window that is not
// minimized).
func (p *Page) inFront() bool {
	p.focusMu.Lock()
	defer p.focusMu.Unlock()
	return p.focusHolds > 0 && p.shown
}

// headless reports whether the browser runs without windows: its user
// agent reads HeadlessChrome (its product does not, since the new headless
// mode); asked once per connection. A browser that does not answer counts
// as headful: the keyboard's way works in both.
func (b *Browser) headless(ctx context.Context) bool {
	return strings.Contains(b.UserAgent(ctx), "HeadlessChrome")
}

// UserAgent is the browser's user agent, asked once per connection (""
// when the browser does not answer).
func (b *Browser) UserAgent(ctx context.Context) string {
	b.productMu.Lock()
	defer b.productMu.Unlock()
	if b.userAgent == "" {
		var v proto.BrowserGetVersionResult
		if err := b.Call(ctx, "read browser version", "Browser.getVersion", proto.BrowserGetVersion{}, &v); err != nil {
			return ""
		}
		b.userAgent = v.UserAgent
	}
	return b.userAgent
}
