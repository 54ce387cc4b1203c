//go:build desktop || dev

package tray

import (
	"runtime"

	"fyne.io/systray"

	"github.com/ferrydesk/ferry/app/internal/ico"
)

// trayLoop runs systray on an OS thread of its own and returns its end.
// On Windows the icon's hidden window gets its messages only on the thread
// that created it, and RunWithExternalLoop would create it on the caller's
// thread but pump messages on another: systray.Run creates and pumps on
// this one thread until Quit.
func trayLoop(onReady func()) (end func()) {
	go func() {
		runtime.LockOSThread()
		systray.Run(onReady, nil)
	}()
	return systray.Quit
}

// trayIconData is the icon as systray on Windows takes it: .ico data
// (ico.FromPNG), or nil (Windows' stock icon) when the PNG cannot be read.
func trayIconData(png []byte) []byte {
	if len(png) == 0 {
		return nil
	}
	data, err := ico.FromPNG(png)
	if err != nil {
		return nil
	}
	return data
}
