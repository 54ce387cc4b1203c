package app

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/app/internal/hotkey"
	"github.com/ferrydesk/ferry/app/internal/tray"
)

// TestHiddenStartWithoutTrayShowsTheWindow: the login entry starts Ferry
// hidden; where no tray can show it (no icon, or a session bus with no
// StatusNotifierWatcher) the window shows, since nothing else could bring
// it up.
func TestHiddenStartWithoutTrayShowsTheWindow(t *testing.T) {
	addr := apptest.StartBus(t)
	if tray.SystemPlace().Shown(addr) {
		t.Fatal("a bare session bus reports a tray host")
	}
	sh, _, _ := openShell(t, nil)
	env := map[string]string{"DBUS_SESSION_BUS_ADDRESS": addr}
	ex := newExtras(sh, apptest.QuietLog(), nil, func(k string) string { return env[k] })
	ex.startTray = func([]byte, tray.Actions, *slog.Logger) (tray.Icon, error) { return nil, errors.New("no tray here") }
	ex.grabber = func(hotkey.Env) hotkey.Grabber { return &fakeGrabber{} }
	ex.startHidden = true
	win := &fakeWindow{w: 1100, h: 720}
	ex.startWith(context.Background(), win, func() {})
	defer ex.stop()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		win.mu.Lock()
		shown := win.visible
		win.mu.Unlock()
		if shown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the window started hidden stayed hidden with no tray to show it")
		}
	}
	if ex.status().Tray {
		t.Error("the status reports a tray")
	}
}
