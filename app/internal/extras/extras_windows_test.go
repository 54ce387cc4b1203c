package extras

import (
	"testing"

	"github.com/ferrydesk/ferry/app/internal/apptest"
)

// On Windows the extras take the notification area's gate (the tray's own
// test of the same name is app/internal/tray's).
func TestWindowsTrayNeedsNoSessionBus(t *testing.T) {
	e := New(Shell{}, testSize, apptest.QuietLog(), nil, func(string) string { return "" })
	if e.trayUsable("") != nil || !e.trayHost("") {
		t.Error("the extras do not use the notification area's gate")
	}
}
