package app

import (
	"context"
	"io"
	"log/slog"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/ferrydesk/ferry/app/internal/demo"
)

// newDemoLauncher starts the demo from this window (demo.Launcher), which
// hides until the demo ends and then comes back where it was.
func newDemoLauncher(sh *shell, log *slog.Logger, stderr io.Writer) *demo.Launcher {
	desk := runtimeDesktop{sh}
	var place windowPlace // where the window was when it hid; hide and show run one after the other
	hide := func() {
		if ctx, err := desk.windowContext(); err == nil {
			place = placeOf(ctx)
			wruntime.WindowHide(ctx)
		}
	}
	show := func() {
		if ctx, err := desk.windowContext(); err == nil {
			place.showAt(ctx)
		}
	}
	return demo.NewLauncher(hide, show, stderr, log)
}

// windowPlace is where a window was on the screen and its size, so that
// a hidden window comes back there: shown again, a window is placed anew
// by the window manager (elsewhere, and centred by some).
type windowPlace struct {
	x, y, width, height int
	maximised           bool
	known               bool
}

// placeOf reads the place of the running window.
func placeOf(ctx context.Context) windowPlace {
	w := runtimeWindow{ctx}
	p := windowPlace{maximised: wruntime.WindowIsMaximised(ctx), known: true}
	p.x, p.y = w.Position()
	p.width, p.height = w.Size()
	return p
}

// showAt shows the window at p: moved there before it maps (the window
// manager's first placement) and after (a manager that placed it anyway),
// at its former size; a maximised window only shows, maximised again.
func (p windowPlace) showAt(ctx context.Context) {
	w := runtimeWindow{ctx}
	if !p.known || p.maximised {
		w.Show()
		return
	}
	w.SetPosition(p.x, p.y)
	w.Show()
	w.SetSize(p.width, p.height)
	w.SetPosition(p.x, p.y)
}
