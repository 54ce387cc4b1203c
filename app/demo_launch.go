package app

import (
	"io"
	"log/slog"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/ferrydesk/ferry/app/internal/demo"
	"github.com/ferrydesk/ferry/app/internal/window"
)

// newDemoLauncher starts the demo from this window (demo.Launcher), which
// hides until the demo ends and then comes back where it was.
func newDemoLauncher(sh *shell, log *slog.Logger, stderr io.Writer) *demo.Launcher {
	var place window.Place // where the window was when it hid; hide and show run one after the other
	hide := func() {
		if ctx, err := sh.windowContext(); err == nil {
			place = window.PlaceOf(ctx)
			wruntime.WindowHide(ctx)
		}
	}
	show := func() {
		if ctx, err := sh.windowContext(); err == nil {
			place.ShowAt(ctx)
		}
	}
	return demo.NewLauncher(hide, show, stderr, log)
}
