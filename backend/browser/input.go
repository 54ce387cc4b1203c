package browser

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/go-rod/rod/lib/proto"

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

// locate scrolls the element into view if needed (scrolling does not focus
// or activate anything) and returns its centre and whether another element
// covers that point.
func (p *Page) locate(ctx context.Context, sel string) (located, error) {
	var l located
	err := p.EvalInto(ctx, &l, `(sel) => {`+findJS+`
  const el = __find(sel);
  if (!el) return {found: false};
  let r = el.getBoundingClientRect();
  if (r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) {
    el.scrollIntoView({block: 'center', inline: 'center'});
    r = el.getBoundingClientRect();
  }
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const covered = !hit || !(hit === el || el.contains(hit));
  const desc = hit ? hit.tagName.toLowerCase() + (hit.id ? '#' + hit.id : '') +
    (typeof hit.className === 'string' && hit.className ? '.' + hit.className.trim().split(/\s+/).join('.') : '') : '';
  return {found: true, x, y, covered, hit: desc};
}`, sel)
	return l, err
}

func notFound(sel string) error {
	return errs.New(errs.ComposerNotFound, "no visible element matches %s", sel).WithEvidence("selector", sel)
}

// Click sends a trusted left click (CDP mouse events: move, press, release)
// at the centre of the first visible element matching sel and returns the
// point clicked. It does not focus the window or activate the tab. When
// another element covers the centre (a modal backdrop, say) nothing is
// clicked and the error wraps ErrObscured. A click can be accepted and
// ignored while a page re-renders: callers verify its effect. No match is
// ComposerNotFound. The tab holds input (see HoldInput) from the look-up to
// the release.
func (p *Page) Click(ctx context.Context, sel string) (pt Point, err error) {
	err = p.withInput(ctx, func() error {
		pt, err = p.click(ctx, sel)
		return err
	})
	return pt, err
}

func (p *Page) click(ctx context.Context, sel string) (Point, error) {
	l, err := p.locate(ctx, sel)
	if err != nil {
		return Point{}, err
	}
	if !l.Found {
		return Point{}, notFound(sel)
	}
	if l.Covered {
		return Point{}, fmt.Errorf("click %s: covered by %s: %w", sel, l.Hit, ErrObscured)
	}
	pt := Point{l.X, l.Y}
	return pt, p.clickAt(ctx, pt)
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
// in a tab in the background too (see post.go for why the move is not
// awaited before the press).
func (p *Page) ClickAt(ctx context.Context, pt Point) error {
	return p.withInput(ctx, func() error { return p.clickAt(ctx, pt) })
}

func (p *Page) clickAt(ctx context.Context, pt Point) error {
	move := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseMoved, X: pt.X, Y: pt.Y}
	press := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMousePressed, X: pt.X, Y: pt.Y,
		Button: proto.InputMouseButtonLeft, Buttons: intPtr(1), ClickCount: 1}
	release := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseReleased, X: pt.X, Y: pt.Y,
		Button: proto.InputMouseButtonLeft, Buttons: intPtr(0), ClickCount: 1}

	var moved <-chan postedReply
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
			return r.failure()
		case <-settle.C:
			return nil
		case <-s.ctx.Done():
			return context.Cause(s.ctx)
		}
	})
	if err != nil {
		return err
	}
	for _, ev := range []proto.InputDispatchMouseEvent{press, release} {
		if err := p.Exec(ctx, "Input.dispatchMouseEvent", ev, nil); err != nil {
			return err
		}
	}
	if moved == nil {
		return nil
	}
	// The press was dispatched after the move, so its reply is in by now;
	// waiting still reports a move Chromium refused.
	return p.do(ctx, "move the mouse", func(s session) error { return wait(s.ctx, moved) })
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
