package extras

import (
	"sync"
	"time"
)

// The quick prompt.
//
// Wails v2 gives a process one window, so the quick prompt is a mode of the
// main window rather than a second one: the window shrinks to a compact
// box, stays on top of other windows and the frontend swaps its shell for
// the QuickPrompt layout (site picker and a prompt box). Esc, or sending,
// puts the window back as it was: the full layout at its former size, and
// out of the way again when the quick prompt was called up from elsewhere
// (the hotkey or the tray). A second process for the box would need its own
// WebKit (another 230 MB) and a way to reach this one's core; the mode
// costs nothing.

// Quick prompt geometry: one line of site picker, four lines of prompt;
// once a prompt is sent the box grows to show its answer below it.
const (
	quickWidth        = 620
	quickHeight       = 248
	quickAnswerHeight = 520
)

// Events the quick prompt and the tray send to the frontend.
const (
	// eventQuickOpen tells the frontend to show the QuickPrompt layout;
	// its data is a quickOpened.
	eventQuickOpen = "quick:open"
	// eventQuickClose tells it to return to the full shell.
	eventQuickClose = "quick:close"
	// eventShowRun asks the full window to show a run; its data is the
	// session id ("" just shows the window).
	eventShowRun = "window:show-run"
)

// quickOpened is the data of eventQuickOpen.
type quickOpened struct {
	// Site is the site the box sends to first (settings quickPrompt.defaultSite).
	Site string `json:"site"`
}

// Window is what the quick prompt, the tray and notification clicks do to
// the main window. An interface so that the mode's logic is tested without
// a window; window.Runtime (app/internal/window) is the real one.
type Window interface {
	Show()
	Hide()
	Minimise()
	Unminimise()
	IsMinimised() bool
	Center()
	SetAlwaysOnTop(on bool)
	Size() (w, h int)
	SetSize(w, h int)
	SetMinSize(w, h int)
	// Position and SetPosition are the window's top-left corner on the
	// screen (absolute, not per monitor), so that a saved place is put back
	// exactly.
	Position() (x, y int)
	SetPosition(x, y int)
}

// nopWindow stands in until the window has started; Size is the window's
// size at start.
type nopWindow struct{ size Size }

func (nopWindow) Show()                {}
func (nopWindow) Hide()                {}
func (nopWindow) Minimise()            {}
func (nopWindow) Unminimise()          {}
func (nopWindow) IsMinimised() bool    { return false }
func (nopWindow) Center()              {}
func (nopWindow) SetAlwaysOnTop(bool)  {}
func (w nopWindow) Size() (int, int)   { return w.size.Width, w.size.Height }
func (nopWindow) SetSize(int, int)     {}
func (nopWindow) SetMinSize(int, int)  {}
func (nopWindow) Position() (int, int) { return 0, 0 }
func (nopWindow) SetPosition(int, int) {}

// Origins of a quick prompt: from inside the window it returns to the full
// window; from the hotkey or the tray it goes back to where the window was
// (hidden or minimised again, or up as it was).
const (
	fromWindow  = "window"
	fromOutside = "outside"
)

// quickMode switches the window between the full shell and the quick
// prompt. Safe for concurrent use (the hotkey, the tray and bound calls
// arrive on their own goroutines).
type quickMode struct {
	mu      sync.Mutex
	win     func() Window
	emit    func() Emitter
	site    func() string // the default site, read when the box opens
	canHide func() bool   // true while a tray icon can bring the window back
	size    Size          // the full window's, given back after the quick prompt

	active bool
	away   bool // the window was hidden or minimised when the box opened from outside
	hidden bool // the window is hidden by us (only we hide it)
	savedW int
	savedH int
	savedX int
	savedY int
	grown  bool // the box shows an answer (quickAnswerHeight)
}

// resizeSettle bounds the wait for a resize: Wails applies a new minimum
// size on the GTK main loop but resizes at once, so a shrink can be clamped
// by the old minimum and must be repeated once the minimum has changed.
const resizeSettle = 600 * time.Millisecond

// resize sets the window's size and repeats it until the window has it (or
// resizeSettle passed).
func resize(w Window, width, height int) {
	deadline := time.Now().Add(resizeSettle)
	for {
		w.SetSize(width, height)
		if cw, ch := w.Size(); (cw == width && ch == height) || time.Now().After(deadline) {
			return
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// open shows the quick prompt, from fromWindow or fromOutside.
func (q *quickMode) open(origin string) {
	q.mu.Lock()
	w := q.win()
	if !q.active {
		q.savedW, q.savedH = w.Size()
		q.savedX, q.savedY = w.Position()
		q.active = true
		q.grown = false
		q.away = origin == fromOutside && (q.hidden || w.IsMinimised())
		w.SetMinSize(quickWidth, quickHeight)
		resize(w, quickWidth, quickHeight)
		w.SetAlwaysOnTop(true)
		w.Center()
	}
	q.hidden = false
	q.mu.Unlock()
	w.Unminimise()
	w.Show()
	q.emit().Emit(eventQuickOpen, quickOpened{Site: q.site()})
}

// close leaves the quick prompt (Esc, or after a send): the full shell at
// its former size, and out of the way when the box came from outside.
func (q *quickMode) close() {
	q.mu.Lock()
	if !q.active {
		q.mu.Unlock()
		return
	}
	w := q.win()
	q.restoreLocked(w)
	away := q.away
	if away && q.canHide() {
		q.hidden = true
	}
	q.mu.Unlock()
	q.emit().Emit(eventQuickClose)
	if away {
		if q.canHide() {
			w.Hide()
		} else {
			// Without a tray a hidden window could not be brought back.
			w.Minimise()
		}
	}
}

// grow makes the box tall enough for an answer below the prompt, still
// centred and on top (the frontend asks once it sent a prompt). It does
// nothing when the quick prompt is not showing.
func (q *quickMode) grow() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.active || q.grown {
		return
	}
	q.grown = true
	w := q.win()
	resize(w, quickWidth, quickAnswerHeight)
	w.Center()
}

func (q *quickMode) restoreLocked(w Window) {
	q.active = false
	q.grown = false
	w.SetAlwaysOnTop(false)
	// Grow first, then raise the minimum: a new minimum applied while the
	// resize is pending can cancel it. So when the grow had not landed within
	// resizeSettle (a loaded machine), it is asked for again after.
	width, height := max(q.savedW, q.size.MinWidth), max(q.savedH, q.size.MinHeight)
	resize(w, width, height)
	w.SetMinSize(q.size.MinWidth, q.size.MinHeight)
	resize(w, width, height)
	// The box was centred: the window goes back to where the user had it,
	// not to the box's place.
	w.SetPosition(q.savedX, q.savedY)
}

// showRun brings up the full window (leaving the quick prompt if it is
// open) and asks the frontend to show run id ("" for just the window): the
// tray's Show Ferry and its recent runs, and a click on a notification.
func (q *quickMode) showRun(id string) {
	q.mu.Lock()
	w := q.win()
	wasQuick := q.active
	if q.active {
		q.restoreLocked(w)
	}
	q.hidden = false
	q.mu.Unlock()
	if wasQuick {
		q.emit().Emit(eventQuickClose)
	}
	w.Unminimise()
	w.Show()
	q.emit().Emit(eventShowRun, id)
}

// isActive reports whether the quick prompt is showing.
func (q *quickMode) isActive() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.active
}
