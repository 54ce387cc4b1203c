package hotkey

import (
	"errors"
	"testing"

	"github.com/ferrydesk/ferry/backend/config"
)

// RegisterHotKey for real: the combination is held, a second grab of it is
// errHotkeyTaken (as another program holding it would be), and after the
// release it can be held again.
func TestWinGrabberHoldsAndReleases(t *testing.T) {
	h, err := config.ParseHotkey("Ctrl+Alt+Shift+F19")
	if err != nil {
		t.Fatal(err)
	}
	release, err := winGrabber{}.Grab(h, func() {})
	if err != nil {
		t.Fatalf("Grab: %v", err)
	}
	if again, err := (winGrabber{}).Grab(h, func() {}); !errors.Is(err, errHotkeyTaken) {
		if again != nil {
			again()
		}
		t.Errorf("a second Grab of a held combination = %v, want errHotkeyTaken", err)
	}
	release()
	release2, err := winGrabber{}.Grab(h, func() {})
	if err != nil {
		t.Fatalf("Grab after release: %v", err)
	}
	release2()
}

// Settings' status for a taken combination is the clear message, never a
// crash, through the same Apply the Linux grabbers use.
func TestWinHotkeyTakenIsSettingsMessage(t *testing.T) {
	h, _ := config.ParseHotkey("Ctrl+Alt+Shift+F18")
	release, err := winGrabber{}.Grab(h, func() {})
	if err != nil {
		t.Fatalf("Grab: %v", err)
	}
	defer release()
	k := &Keeper{grabber: winGrabber{}, onPress: func() {}}
	st := k.Apply("Ctrl+Alt+Shift+F18")
	if st.Active || st.Problem == nil || st.Problem.Code != "hotkey_taken" {
		t.Fatalf("Apply of a taken combination = %+v, want hotkey_taken", st)
	}
	k2 := &Keeper{grabber: winGrabber{}, onPress: func() {}}
	if st := k2.Apply("Ctrl+Alt+Shift+F17"); !st.Active || st.Problem != nil {
		t.Errorf("Apply without DISPLAY on Windows = %+v, want active", st)
	}
	k2.Stop()
}
