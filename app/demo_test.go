package app

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/demo"
	"github.com/ferrydesk/ferry/app/internal/hotkey"
	"github.com/ferrydesk/ferry/app/internal/tray"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// The demo's window keeps off what a normal Ferry holds (the demo itself
// is app/internal/demo's).
func TestDemoMode(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	t.Run("the demo takes neither the tray nor the hotkey, and refuses autostart", func(t *testing.T) {
		e := newExtras(newShell(log, time.Now()), log, nil, func(string) string { return "" })
		e.withoutSystemHooks()
		if trayIcon, err := e.startTray(nil, tray.Actions{}, log); trayIcon != nil || errs.CodeOf(err) != errs.EnvironmentNotReady {
			t.Errorf("startTray = %v, %v", trayIcon, err)
		}
		if _, err := e.grabber(hotkey.Env{Display: ":0"}).Grab(config.Hotkey{}, func() {}); errs.CodeOf(err) != errs.EnvironmentNotReady {
			t.Errorf("Grab = %v", err)
		}
		s := &System{sh: newShell(log, time.Now()), demo: &demo.Demo{}}
		if _, err := s.SetAutostart(true); errs.CodeOf(err) != errs.BadInput {
			t.Errorf("SetAutostart in the demo = %v, want bad_input", err)
		}
		if !s.Demo().Active || (&System{}).Demo().Active {
			t.Error("Demo() does not tell the demo from a normal window")
		}
		if err := s.StartDemo(); errs.CodeOf(err) != errs.BadInput {
			t.Errorf("StartDemo in the demo = %v, want bad_input", err)
		}
		if err := (&System{sh: s.sh}).LeaveDemo(); errs.CodeOf(err) != errs.BadInput {
			t.Errorf("LeaveDemo outside the demo = %v, want bad_input", err)
		}
	})
}
