package extras

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
)

// testSize is the app's window: 1100×720 at start, 760×480 at least.
var testSize = Size{Width: 1100, Height: 720, MinWidth: 760, MinHeight: 480}

// fakeWindow records what was done to the window, in order.
type fakeWindow struct {
	mu        sync.Mutex
	calls     []string
	w, h      int
	x, y      int
	onTop     bool
	visible   bool
	minimised bool
}

// do records call s and applies change under the lock: the notifier's
// goroutine drives the window too.
func (f *fakeWindow) do(s string, change func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
	change()
}
func (f *fakeWindow) Show()       { f.do("show", func() { f.visible = true }) }
func (f *fakeWindow) Hide()       { f.do("hide", func() { f.visible = false }) }
func (f *fakeWindow) Minimise()   { f.do("minimise", func() { f.minimised = true }) }
func (f *fakeWindow) Unminimise() { f.do("unminimise", func() { f.minimised = false }) }
func (f *fakeWindow) IsMinimised() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.minimised
}

// Center puts the window at the middle of a 1920x1080 screen.
func (f *fakeWindow) Center() {
	f.do("center", func() { f.x, f.y = (1920-f.w)/2, (1080-f.h)/2 })
}
func (f *fakeWindow) Position() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.x, f.y
}
func (f *fakeWindow) SetPosition(x, y int) {
	f.do(fmt.Sprintf("pos=%d,%d", x, y), func() { f.x, f.y = x, y })
}
func (f *fakeWindow) SetAlwaysOnTop(on bool) {
	f.do(fmt.Sprintf("ontop=%v", on), func() { f.onTop = on })
}
func (f *fakeWindow) Size() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w, f.h
}
func (f *fakeWindow) SetSize(w, h int) {
	f.do(fmt.Sprintf("size=%dx%d", w, h), func() { f.w, f.h = w, h })
}
func (f *fakeWindow) SetMinSize(w, h int) { f.do(fmt.Sprintf("min=%dx%d", w, h), func() {}) }

func (f *fakeWindow) isVisible() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.visible
}

func (f *fakeWindow) has(s string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if c == s {
			return true
		}
	}
	return false
}

func newQuick(tray bool) (*quickMode, *fakeWindow, *apptest.Recorder) {
	win := &fakeWindow{w: 1300, h: 900, x: 40, y: 30, visible: true}
	rec := &apptest.Recorder{}
	q := &quickMode{win: func() Window { return win }, emit: func() Emitter { return rec },
		site: func() string { return "claude" }, canHide: func() bool { return tray }, size: testSize}
	return q, win, rec
}

func TestQuickPromptMode(t *testing.T) {
	t.Run("the window goes back to its own place after the quick prompt, not to the box's", func(t *testing.T) {
		for _, leave := range []string{"close", "showRun"} {
			q, win, _ := newQuick(true)
			q.open(fromWindow)
			if x, y := win.Position(); x == 40 && y == 30 {
				t.Fatalf("the box was not centred: at %d,%d", x, y)
			}
			q.grow()
			if win.h != quickAnswerHeight || win.w != quickWidth {
				t.Fatalf("%s: the box with its answer is %dx%d", leave, win.w, win.h)
			}
			if leave == "close" {
				q.close()
			} else {
				q.showRun("run-1")
			}
			if x, y := win.Position(); x != 40 || y != 30 || win.w != 1300 || win.h != 900 {
				t.Errorf("%s: the window is %dx%d at %d,%d, want 1300x900 at 40,30", leave, win.w, win.h, x, y)
			}
		}
	})
	t.Run("grow does nothing while the quick prompt is not showing", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.grow()
		if win.h != 900 || win.has("center") {
			t.Errorf("the full window was changed: %dx%d, calls %v", win.w, win.h, win.calls)
		}
	})
	t.Run("opening makes the window compact, on top and shown, and tells the frontend", func(t *testing.T) {
		q, win, rec := newQuick(true)
		q.open(fromOutside)
		if win.w != quickWidth || win.h != quickHeight || !win.onTop || !win.visible {
			t.Fatalf("window %dx%d onTop=%v visible=%v", win.w, win.h, win.onTop, win.visible)
		}
		if !win.has(fmt.Sprintf("min=%dx%d", quickWidth, quickHeight)) {
			t.Error("the minimum size was not lowered: the window could not shrink")
		}
		if rec.Names() != eventQuickOpen {
			t.Errorf("events %q", rec.Names())
		}
	})
	t.Run("closing restores the size and minimum, drops on-top, and hides a window that was hidden", func(t *testing.T) {
		q, win, rec := newQuick(true)
		win.minimised = true
		q.open(fromOutside)
		q.close() // a minimised window is hidden afterwards, with the tray to bring it back
		if win.visible {
			t.Fatal("the window that was minimised is up after the quick prompt")
		}
		rec.Events = nil
		q.open(fromOutside)
		q.close()
		if win.w != 1300 || win.h != 900 || win.onTop || win.visible {
			t.Fatalf("window %dx%d onTop=%v visible=%v", win.w, win.h, win.onTop, win.visible)
		}
		if !win.has(fmt.Sprintf("min=%dx%d", testSize.MinWidth, testSize.MinHeight)) {
			t.Error("the minimum size was not restored")
		}
		if rec.Names() != eventQuickOpen+" "+eventQuickClose {
			t.Errorf("events %q", rec.Names())
		}
	})
	t.Run("a window that was up stays up after a quick prompt from outside", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.open(fromOutside)
		q.close()
		if win.has("hide") || win.has("minimise") || !win.visible || win.w != 1300 {
			t.Errorf("calls %v", win.calls)
		}
	})
	t.Run("without a tray a minimised window is minimised again, never hidden for good", func(t *testing.T) {
		q, win, _ := newQuick(false)
		win.minimised = true
		q.open(fromOutside)
		q.close()
		if win.has("hide") || !win.has("minimise") {
			t.Errorf("calls %v", win.calls)
		}
	})
	t.Run("opened from the window it returns to the full window", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.open(fromWindow)
		q.close()
		if win.has("hide") || win.has("minimise") || !win.visible {
			t.Errorf("calls %v", win.calls)
		}
	})
	t.Run("a second open keeps the first saved size", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.open(fromOutside)
		q.open(fromOutside)
		q.close()
		if win.w != 1300 || win.h != 900 {
			t.Errorf("restored to %dx%d", win.w, win.h)
		}
	})
	t.Run("showing a run leaves the quick prompt and keeps the window up", func(t *testing.T) {
		q, win, rec := newQuick(true)
		q.open(fromOutside)
		q.showRun("run-7")
		if q.isActive() || win.onTop || !win.visible || win.w != 1300 {
			t.Errorf("window %dx%d onTop=%v visible=%v active=%v", win.w, win.h, win.onTop, win.visible, q.isActive())
		}
		if rec.Names() != eventQuickOpen+" "+eventQuickClose+" "+eventShowRun {
			t.Errorf("events %q", rec.Names())
		}
	})
	t.Run("closing when not open does nothing", func(t *testing.T) {
		q, win, rec := newQuick(true)
		q.close()
		if len(win.calls) != 0 || rec.Names() != "" {
			t.Errorf("calls %v events %q", win.calls, rec.Names())
		}
	})
}

// busyWindow is a window whose main loop is busy until a moment: a resize
// lands only after it, and a new minimum size cancels a resize that has not
// landed yet, as GTK does.
type busyWindow struct {
	*fakeWindow
	busyUntil    time.Time
	pendW, pendH int
}

func (b *busyWindow) SetSize(w, h int) { b.mu.Lock(); b.pendW, b.pendH = w, h; b.mu.Unlock() }
func (b *busyWindow) SetMinSize(w, h int) {
	b.mu.Lock()
	b.pendW, b.pendH = 0, 0
	b.mu.Unlock()
	b.fakeWindow.SetMinSize(w, h)
}
func (b *busyWindow) Size() (int, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pendW != 0 && time.Now().After(b.busyUntil) {
		b.w, b.h, b.pendW, b.pendH = b.pendW, b.pendH, 0, 0
	}
	return b.w, b.h
}

func TestQuickCloseRestoresTheSizeOnABusyMainLoop(t *testing.T) {
	q, fake, _ := newQuick(true)
	q.open(fromWindow)
	busy := &busyWindow{fakeWindow: fake, busyUntil: time.Now().Add(resizeSettle + 100*time.Millisecond)}
	q.win = func() Window { return busy }
	q.close()
	if w, h := busy.Size(); w != 1300 || h != 900 {
		t.Fatalf("after Esc the window is %dx%d, want 1300x900 again", w, h)
	}
}
