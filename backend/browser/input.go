package browser

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/posted"
	"github.com/ferrydesk/ferry/backend/errs"
)

// findJS is the prelude every selector-based helper uses: the first match of
// sel that is rendered (sites keep hidden twins of their composers, such as
// ChatGPT's display:none textarea, earlier in the DOM).
const findJS = `
const __find = (sel) => {
  for (const el of document.querySelectorAll(sel)) {
    const st = getComputedStyle(el);
    if (st.display === 'none' || st.visibility === 'hidden') continue;
    if (el.getClientRects().length === 0) continue;
    return el;
  }
  return null;
};`

// Point is a position in the tab's viewport, in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type located struct {
	Found   bool    `json:"found"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Covered bool    `json:"covered"`
	Hit     string  `json:"hit"`
}

// describeJS names an element for a person reading an envelope: its tag,
// id, classes, role, aria-label, test id and the head of its text.
const describeJS = `
const __describe = (e) => {
  if (!e) return 'nothing (the point is outside the page)';
  let d = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '');
  if (typeof e.className === 'string' && e.className.trim()) d += '.' + e.className.trim().split(/\s+/).slice(0, 6).join('.');
  for (const a of ['role', 'aria-label', 'data-testid']) {
    const v = e.getAttribute(a);
    if (v) d += '[' + a + '="' + v.slice(0, 60) + '"]';
  }
  const text = (e.innerText || e.textContent || '').replace(/\s+/g, ' ').trim();
  if (text) d += ' "' + (text.length > 40 ? text.slice(0, 40) + '…' : text) + '"';
  return d;
};`

// locateJS finds the element, scrolls it into view when its centre lies
// outside the visible area (scrolling does not focus or activate
// anything), and picks the point to press: the centre of the element's
// visible part (its rect clipped by the viewport and by every ancestor
// that clips its overflow), or when something covers that centre another
// point of the visible part that the element itself receives. It keeps the
// element for the press (see armJS).
const locateJS = `(sel) => {` + findJS + describeJS + `
  const el = __find(sel);
  if (!el) return {found: false};
  const vw = document.documentElement.clientWidth || innerWidth;
  const vh = document.documentElement.clientHeight || innerHeight;
  const visible = () => {
    const r = el.getBoundingClientRect();
    let l = Math.max(r.left, 0), t = Math.max(r.top, 0), rt = Math.min(r.right, vw), b = Math.min(r.bottom, vh);
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
      const ar = a.getBoundingClientRect();
      l = Math.max(l, ar.left); t = Math.max(t, ar.top); rt = Math.min(rt, ar.right); b = Math.min(b, ar.bottom);
    }
    return rt - l >= 1 && b - t >= 1 ? {l, t, w: rt - l, h: b - t} : null;
  };
  const r0 = el.getBoundingClientRect();
  const cx = r0.left + r0.width / 2, cy = r0.top + r0.height / 2;
  let v = visible();
  if (!v || cx < v.l || cx >= v.l + v.w || cy < v.t || cy >= v.t + v.h) {
    el.scrollIntoView({block: 'center', inline: 'center'});
    v = visible();
  }
  if (!v) return {found: true, covered: true, hit: 'nothing: the element has no visible part'};
  window.__ferryAim = el;
  const inside = (x, y) => { const h = document.elementFromPoint(x, y); return h && (h === el || el.contains(h)); };
  const x0 = v.l + v.w / 2, y0 = v.t + v.h / 2;
  for (const [fx, fy] of [[.5, .5], [.25, .5], [.75, .5], [.5, .25], [.5, .75]]) {
    const x = v.l + v.w * fx, y = v.t + v.h * fy;
    if (inside(x, y)) return {found: true, x, y, covered: false};
  }
  return {found: true, x: x0, y: y0, covered: true, hit: __describe(document.elementFromPoint(x0, y0))};
}`

// locate finds the first visible element matching sel and the point to
// press it at (see locateJS).
func (p *Page) locate(ctx context.Context, sel string) (located, error) {
	var l located
	err := p.EvalInto(ctx, &l, locateJS, sel)
	return l, err
}

// locateFound is locate with no match an error (ComposerNotFound).
func (p *Page) locateFound(ctx context.Context, sel string) (located, error) {
	l, err := p.locate(ctx, sel)
	if err == nil && !l.Found {
		err = notFound(sel)
	}
	return l, err
}

func notFound(sel string) error {
	return errs.New(errs.ComposerNotFound, "no visible element matches %s", sel).WithEvidence("selector", sel)
}

// Click sends a trusted left click (CDP mouse events: move, press, release)
// at the centre of the visible part of the first visible element matching
// sel, scrolling it into view first when its centre is out of view, and
// returns the point clicked. It does not focus the window or activate the
// tab: in the tab a headful window shows, where a pointer press would make
// Chromium raise and focus its window, it clicks the keyboard's way instead
// (see keyclick.go: focus, Enter or Space, or an access key; no
// pointerdown or mousedown reaches the page there). When another element covers the element (a modal backdrop, say)
// nothing is clicked and the error is an *ObscuredError (matching
// ErrObscured) naming what covers it. The press is verified to land on the
// element: a layout that moved between the look-up and the press is looked
// up once more, and a press that lands elsewhere never reaches the page's
// handlers. A click can be accepted and ignored while a page re-renders:
// callers verify its effect. No match is ComposerNotFound. The tab holds
// input (see HoldInput) from the look-up to the release.
func (p *Page) Click(ctx context.Context, sel string) (pt Point, err error) {
	err = p.withInput(ctx, func() error {
		pt, err = p.click(ctx, sel)
		return err
	})
	return pt, err
}

func (p *Page) click(ctx context.Context, sel string) (Point, error) {
	if pt, handled, err := p.keyClick(ctx, sel); handled {
		return pt, err
	}
	pt, l, err := p.pressAimed(ctx, sel)
	if err != nil {
		return Point{}, err
	}
	if l.Covered {
		return Point{}, &ObscuredError{Selector: sel, By: l.Hit}
	}
	return pt, nil
}

// aim is what the page saw of one aimed press (see armJS).
type aim struct {
	Armed bool   `json:"armed"` // the point was still on the element just before the press
	Gone  bool   `json:"gone"`  // the document went away (the press navigated): it landed
	Down  bool   `json:"down"`  // a trusted press reached the document
	On    bool   `json:"on"`    // and its target was the element or inside it
	Hit   string `json:"hit"`   // what the press or the point hit instead
}

// armJS checks, with the pointer already at the point, that the element
// under it is still the one aimed at, and installs a one-shot guard: a
// trusted press whose target is not the element is stopped before any of
// the page's handlers (its release and click with it), so a layout that
// moved at the last moment clicks nothing.
const armJS = `(x, y) => {` + describeJS + `
  const el = window.__ferryAim;
  delete window.__ferryAim;
  if (!el || !el.isConnected) return {armed: false, hit: 'the element left the page'};
  const h = document.elementFromPoint(x, y);
  if (!(h && (h === el || el.contains(h)))) return {armed: false, hit: __describe(h)};
  const probe = {down: false, on: false, hit: ''};
  const stop = (e) => { e.preventDefault(); e.stopImmediatePropagation(); };
  const onDown = (e) => {
    if (!e.isTrusted || probe.down) return;
    probe.down = true;
    probe.on = e.target === el || (e.target instanceof Node && el.contains(e.target));
    if (!probe.on) { probe.hit = __describe(e.target); stop(e); }
  };
  const onRest = (e) => { if (e.isTrusted && probe.down && !probe.on) stop(e); };
  const types = ['pointerup', 'mouseup', 'click', 'auxclick', 'contextmenu'];
  addEventListener('pointerdown', onDown, true);
  addEventListener('mousedown', onDown, true);
  for (const t of types) addEventListener(t, onRest, true);
  probe.off = () => {
    removeEventListener('pointerdown', onDown, true);
    removeEventListener('mousedown', onDown, true);
    for (const t of types) removeEventListener(t, onRest, true);
  };
  window.__ferryProbe = probe;
  return {armed: true};
}`

// probeJS reads what the armed guard saw and removes it. A press that has
// not reached the document yet is awaited briefly (a headful tab just shown
// routes mouse events only once it has drawn a frame; until then Chromium
// drops them).
const probeJS = `() => new Promise((resolve) => {
  const probe = window.__ferryProbe;
  if (!probe) return resolve({armed: true, gone: true});
  const done = () => {
    probe.off();
    delete window.__ferryProbe;
    resolve({armed: true, down: probe.down, on: probe.on, hit: probe.hit});
  };
  if (probe.down) return setTimeout(done, 0);
  const until = Date.now() + 250;
  const check = () => (probe.down || Date.now() > until) ? done() : setTimeout(check, 10);
  check();
})`

// frameJS waits (bounded) for the tab to draw a frame: a headful tab just
// shown drops mouse events until it has.
const frameJS = `() => new Promise((resolve) => {
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
  setTimeout(() => resolve(false), 500);
})`

// pressAimed looks up sel, and unless it is covered presses it (see
// Click) and returns the point pressed with the look-up. Two tries: a
// second look-up when the element moved from under the pointer, or a
// second press when the first never reached the page.
func (p *Page) pressAimed(ctx context.Context, sel string) (Point, located, error) {
	var last aim
	for try := 0; try < 2; try++ {
		l, err := p.locate(ctx, sel)
		if err != nil {
			return Point{}, l, err
		}
		if !l.Found {
			return Point{}, l, notFound(sel)
		}
		if l.Covered {
			return Point{}, l, nil
		}
		pt := Point{l.X, l.Y}
		if last, err = p.pressAt(ctx, pt); err != nil {
			return Point{}, l, err
		}
		switch {
		case last.Gone || (last.Armed && last.Down && last.On):
			return pt, l, nil
		case last.Armed && !last.Down:
			// Dropped before the page: let the tab draw, then again.
			_, _ = p.Eval(ctx, frameJS)
		}
	}
	if last.Armed && !last.Down {
		return Point{}, located{}, fmt.Errorf("click %s: %w", sel, ErrNotDelivered)
	}
	return Point{}, located{Found: true, Covered: true, Hit: last.Hit}, nil
}

// pressAt moves the pointer to pt, arms the guard (see armJS) and, when the
// element is still there, presses and releases; it reports what the page
// saw.
func (p *Page) pressAt(ctx context.Context, pt Point) (aim, error) {
	var a aim
	err := p.pointer(ctx, pt, func() error {
		if err := p.EvalInto(ctx, &a, armJS, pt.X, pt.Y); err != nil {
			return err
		}
		if !a.Armed {
			return nil
		}
		return p.pressRelease(ctx, pt)
	})
	if err != nil || !a.Armed {
		return a, err
	}
	if err := p.EvalInto(ctx, &a, probeJS); err != nil {
		if p.Err() != nil || ctx.Err() != nil {
			return a, err
		}
		// The press navigated the document away while it was read.
		return aim{Armed: true, Gone: true}, nil
	}
	return a, nil
}

// moveSettle is how long ClickAt lets a visible tab dispatch the mouse move
// at its next frame (as a user's pointer would arrive before the press)
// before the press goes out anyway. A tab in the background draws no frames:
// there the press itself flushes the move, so this bounds what it costs.
const moveSettle = 50 * time.Millisecond

// ClickAt sends a trusted left click at pt: a mouse move, press and release,
// which the page receives in that order, while the tab holds input (see
// HoldInput: a headful browser drops presses sent to a tab never shown). It
// never activates the tab or focuses the window, and it costs milliseconds
// in a tab in the background too (see package posted for why the move is
// not awaited before the press).
func (p *Page) ClickAt(ctx context.Context, pt Point) error {
	return p.withInput(ctx, func() error { return p.clickAt(ctx, pt) })
}

// Hover moves the mouse (a trusted move, no press: it raises no window)
// over the centre of the visible part of the first visible element
// matching sel, for a page that shows something on hover (a tooltip).
// Errors as Click: ComposerNotFound for no match, an *ObscuredError when
// something covers the element.
func (p *Page) Hover(ctx context.Context, sel string) error {
	return p.withInput(ctx, func() error {
		l, err := p.locateFound(ctx, sel)
		if err != nil {
			return err
		}
		if l.Covered {
			return &ObscuredError{Selector: sel, By: l.Hit}
		}
		return p.pointer(ctx, Point{X: l.X, Y: l.Y}, func() error { return nil })
	})
}

func (p *Page) clickAt(ctx context.Context, pt Point) error {
	return p.pointer(ctx, pt, func() error { return p.pressRelease(ctx, pt) })
}

// pointer moves the mouse to pt and runs fn (the press) once the move has
// been dispatched or after moveSettle, whichever comes first.
func (p *Page) pointer(ctx context.Context, pt Point, fn func() error) error {
	move := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: pt.X, Y: pt.Y}
	var moved <-chan posted.Reply
	err := p.do(ctx, "move the mouse", func(s session) error {
		var err error
		if moved, err = p.b.sock.post(string(s.id), "Input.dispatchMouseEvent", move); err != nil {
			return err
		}
		settle := time.NewTimer(moveSettle)
		defer settle.Stop()
		select {
		case r := <-moved:
			moved = nil
			return r.Err()
		case <-settle.C:
			return nil
		case <-s.ctx.Done():
			return context.Cause(s.ctx)
		}
	})
	if err != nil {
		return err
	}
	if err := fn(); err != nil {
		return err
	}
	if moved == nil {
		return nil
	}
	// The press was dispatched after the move, so its reply is in by now;
	// waiting still reports a move Chromium refused.
	return p.do(ctx, "move the mouse", func(s session) error { return posted.Wait(s.ctx, moved) })
}

// pressRelease sends a left press and release at pt.
func (p *Page) pressRelease(ctx context.Context, pt Point) error {
	press := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: pt.X, Y: pt.Y,
		Button: proto.InputMouseButtonLeft, Buttons: intPtr(1), ClickCount: 1}
	release := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: pt.X, Y: pt.Y,
		Button: proto.InputMouseButtonLeft, Buttons: intPtr(0), ClickCount: 1}
	for _, ev := range []proto.InputDispatchMouseEvent{press, release} {
		if err := p.Exec(ctx, "Input.dispatchMouseEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

func intPtr(i int) *int { return &i }

// Key is a key press as CDP describes it.
type Key struct {
	Key       string // DOM key value, "Enter"
	Code      string // DOM code value, "Enter"
	KeyCode   int    // Windows virtual key code, 13
	Text      string // text the key inserts, "\r" for Enter
	Modifiers int    // 1 Alt, 2 Ctrl, 4 Meta, 8 Shift
}

// Keys Ferry presses: Enter submits on some sites; Ctrl+Enter and Cmd+Enter
// on those where Enter inserts a newline (Grok).
var (
	Enter     = Key{Key: "Enter", Code: "Enter", KeyCode: 13, Text: "\r"}
	CtrlEnter = Key{Key: "Enter", Code: "Enter", KeyCode: 13, Modifiers: 2}
	MetaEnter = Key{Key: "Enter", Code: "Enter", KeyCode: 13, Modifiers: 4}
)

// Press sends a trusted key down and up to the focused element of the tab,
// holding input (see HoldInput) for the two events.
func (p *Page) Press(ctx context.Context, k Key) error {
	return p.withInput(ctx, func() error { return p.press(ctx, k) })
}

func (p *Page) press(ctx context.Context, k Key) error {
	down := proto.InputDispatchKeyEvent{
		Type: proto.InputDispatchKeyEventTypeRawKeyDown, Key: k.Key, Code: k.Code,
		WindowsVirtualKeyCode: k.KeyCode, NativeVirtualKeyCode: k.KeyCode, Modifiers: k.Modifiers,
	}
	if k.Text != "" {
		down.Type = proto.InputDispatchKeyEventTypeKeyDown
		down.Text, down.UnmodifiedText = k.Text, k.Text
	}
	up := proto.InputDispatchKeyEvent{
		Type: proto.InputDispatchKeyEventTypeKeyUp, Key: k.Key, Code: k.Code,
		WindowsVirtualKeyCode: k.KeyCode, NativeVirtualKeyCode: k.KeyCode, Modifiers: k.Modifiers,
	}
	if err := p.Exec(ctx, "Input.dispatchKeyEvent", down, nil); err != nil {
		return err
	}
	return p.Exec(ctx, "Input.dispatchKeyEvent", up, nil)
}

func itoa(i int) string { return strconv.Itoa(i) }
