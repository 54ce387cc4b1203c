package app

import (
	"context"
	"log/slog"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/app/internal/extras"
	"github.com/ferrydesk/ferry/app/internal/hotkey"
	"github.com/ferrydesk/ferry/app/internal/window"
)

// Quick is the frontend's API for the quick prompt mode of the window.
type Quick struct {
	sh *shell
	ex *extras.Extras
}

// Open turns the window into the quick prompt (from a button inside the
// window: Close then returns to the full window). It never fails.
func (q *Quick) Open() {
	q.ex.OpenQuick()
}

// Close leaves the quick prompt (Esc, or after Enter sent the prompt): the
// full window again, hidden or minimised when the quick prompt was called
// up by the hotkey or the tray. It never fails.
func (q *Quick) Close() {
	q.ex.CloseQuick()
}

// Grow makes the quick prompt tall enough to show the answer of the prompt
// it sent, below the prompt. It never fails.
func (q *Quick) Grow() {
	q.ex.GrowQuick()
}

// ShowRun leaves the quick prompt and shows the full window on run id
// (what a click on "answer ready" does). It never fails.
func (q *Quick) ShowRun(id string) {
	q.ex.ShowRun(id)
}

// Status says which desktop integrations work in this session: the global
// hotkey (with why not), the tray icon and notifications. It never fails.
func (q *Quick) Status() ExtrasStatus {
	st := q.ex.Status()
	return ExtrasStatus{Hotkey: HotkeyStatus(st.Hotkey), Tray: st.Tray, Notifications: st.Notifications}
}

// HotkeyStatus says whether the quick prompt's global hotkey works, for
// the Settings view (hotkey.Status, as the frontend's API names it).
type HotkeyStatus hotkey.Status

// ExtrasStatus says which desktop integrations work in this session.
type ExtrasStatus struct {
	Hotkey HotkeyStatus `json:"hotkey"`
	// Tray is true while the tray icon is shown: a tray on the desktop
	// hosts it. False where none does (then the window cannot hide in it,
	// and a start at login shows the window).
	Tray bool `json:"tray"`
	// Notifications is true when a session bus carries them (whether a
	// notification server shows them is up to the desktop); on Windows,
	// when Ferry's notification icon could be set up.
	Notifications bool `json:"notifications"`
}

// newExtras makes the window's extras (app/internal/extras: the quick
// prompt, the tray, the hotkey, notifications), which reach the owner
// through sh.
func newExtras(sh *shell, log *slog.Logger, icon []byte, getenv func(string) string) *extras.Extras {
	return extras.New(extras.Shell{
		WithService: sh.withService,
		Subscribe: func(ctx context.Context, buf int) (any, <-chan event.Event) {
			own, events := sh.subscribe(ctx, buf)
			return own, events
		},
		Emitter: func() extras.Emitter { return sh.emitter() },
		Notes:   &sh.notes,
		Caller:  desktopCaller,
	}, extras.Size{Width: defaultWidth, Height: defaultHeight, MinWidth: minWidth, MinHeight: minHeight}, log, icon, getenv)
}

// startExtras brings ex up for the window whose Wails context is ctx
// (OnStartup, after the shell's own startup).
func startExtras(ctx context.Context, ex *extras.Extras) {
	ex.Start(ctx, window.Runtime{Ctx: ctx}, func() { wruntime.Quit(ctx) })
}
