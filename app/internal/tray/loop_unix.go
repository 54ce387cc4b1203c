//go:build (desktop || dev) && !windows

package tray

import "fyne.io/systray"

// trayLoop starts systray with onReady on the D-Bus connection's own
// goroutines (RunWithExternalLoop: nothing to pump) and returns its end.
func trayLoop(onReady func()) (end func()) {
	start, end := systray.RunWithExternalLoop(onReady, nil)
	start()
	return end
}

// trayIconData is the icon as the StatusNotifierItem takes it: the PNG.
func trayIconData(png []byte) []byte { return png }
