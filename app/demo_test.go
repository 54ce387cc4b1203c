package app

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/demo"
	"github.com/ferrydesk/ferry/backend/errs"
)

// The demo's window refuses autostart and tells the frontend it is the
// demo (the demo itself is app/internal/demo's; that it takes neither the
// tray nor the hotkey is app/internal/extras').
func TestDemoMode(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	t.Run("the demo takes neither the tray nor the hotkey, and refuses autostart", func(t *testing.T) {
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
