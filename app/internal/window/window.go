// Package window drives the main Wails window for the quick prompt and the
// demo (Runtime): shown, hidden, moved and resized. On Linux the moves,
// resizes and keep-above are queued on the GTK main loop (gtk.go), since
// GTK is not thread-safe; elsewhere they are the Wails runtime's. Place
// keeps where a window was, so that a hidden one comes back there.
package window

import (
	"context"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// Runtime drives the Wails window of a running app, whose context is Ctx.
type Runtime struct{ Ctx context.Context }

func (w Runtime) Show()                  { wruntime.WindowShow(w.Ctx) }
func (w Runtime) Hide()                  { wruntime.WindowHide(w.Ctx) }
func (w Runtime) Minimise()              { wruntime.WindowMinimise(w.Ctx) }
func (w Runtime) Unminimise()            { wruntime.WindowUnminimise(w.Ctx) }
func (w Runtime) IsMinimised() bool      { return wruntime.WindowIsMinimised(w.Ctx) }
func (w Runtime) Center()                { wruntime.WindowCenter(w.Ctx) }
func (w Runtime) SetAlwaysOnTop(on bool) { windowSetAlwaysOnTop(w.Ctx, on) }
func (w Runtime) Size() (int, int)       { return wruntime.WindowGetSize(w.Ctx) }
func (w Runtime) SetSize(wd, h int)      { windowSetSize(w.Ctx, wd, h) }
func (w Runtime) SetMinSize(wd, h int)   { wruntime.WindowSetMinSize(w.Ctx, wd, h) }
func (w Runtime) Position() (int, int)   { return wruntime.WindowGetPosition(w.Ctx) }
func (w Runtime) SetPosition(x, y int)   { windowMove(w.Ctx, x, y) }
