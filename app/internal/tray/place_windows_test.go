package tray

import "testing"

// On Windows the tray starts without a session bus and counts as shown:
// the freedesktop gate (a bus, a StatusNotifierWatcher) must not apply.
func TestWindowsTrayNeedsNoSessionBus(t *testing.T) {
	p := SystemPlace()
	if err := p.Usable(""); err != nil {
		t.Errorf("Usable without a session bus = %v, want nil", err)
	}
	if !p.Shown("") {
		t.Error("Shown without a session bus = false, want the notification area")
	}
}
