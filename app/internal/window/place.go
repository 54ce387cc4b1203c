package window

import (
	"context"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// Place is where a window was on the screen and its size, so that
// a hidden window comes back there: shown again, a window is placed anew
// by the window manager (elsewhere, and centred by some).
type Place struct {
	x, y, width, height int
	maximised           bool
	known               bool
}

// PlaceOf reads the place of the running window whose context is ctx.
func PlaceOf(ctx context.Context) Place {
	w := Runtime{ctx}
	p := Place{maximised: wruntime.WindowIsMaximised(ctx), known: true}
	p.x, p.y = w.Position()
	p.width, p.height = w.Size()
	return p
}

// ShowAt shows the window at p: moved there before it maps (the window
// manager's first placement) and after (a manager that placed it anyway),
// at its former size; a maximised window only shows, maximised again.
func (p Place) ShowAt(ctx context.Context) {
	w := Runtime{ctx}
	if !p.known || p.maximised {
		w.Show()
		return
	}
	w.SetPosition(p.x, p.y)
	w.Show()
	w.SetSize(p.width, p.height)
	w.SetPosition(p.x, p.y)
}
