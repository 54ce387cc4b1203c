package app

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/ferrydesk/ferry/app/internal/autostart"
	"github.com/ferrydesk/ferry/app/internal/demo"
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

// doctorTimeout bounds a doctor run from the UI (it starts the browser binary
// once to read its version).
const doctorTimeout = 20 * time.Second

// System is the frontend's API for the app itself: version, where its data
// lives, whether the core opened, and the doctor's checks.
type System struct {
	sh     *shell
	demo   *demo.Demo     // the running demo in `--demo`, else nil
	launch *demo.Launcher // starts the demo from a normal window
}

// Status is what the shell shows about the data directory. Problem is why
// the core did not open (nil when it did): the UI shows it and offers the fix.
type Status struct {
	DataDir      string         `json:"dataDir"`
	ConfigDir    string         `json:"configDir"`
	SettingsFile string         `json:"settingsFile"`
	StoreDir     string         `json:"storeDir"`
	Problem      *errs.Envelope `json:"problem"`
}

// FrontendReady is called once by the frontend when its shell has mounted;
// it logs the time from process start. It never fails.
func (s *System) FrontendReady() {
	s.sh.markReady()
}

// WindowFocused tells the app whether its window has the focus (the
// frontend reports each focus and blur): while it has, no run's end becomes
// a desktop notification, since the window shows it. It never fails.
func (s *System) WindowFocused(focused bool) {
	s.sh.notes.Focused(focused)
}

// Autostart reports whether Ferry starts at login, in the tray (an XDG
// autostart entry is there; on Windows the user's Run key holds Ferry's
// value). Errors: config_invalid with no HOME.
func (s *System) Autostart() (bool, error) {
	if s.demo != nil {
		return false, nil // the demo's XDG config directory is its own
	}
	return autostart.System().Enabled()
}

// SetAutostart writes or removes the XDG autostart entry (on Windows the
// Run key's value) that starts this
// ferry-desktop at login with its window hidden (the tray and the hotkey
// show it), and returns the new state. Errors: config_invalid with no
// HOME; bad_input in the demo; internal when the running binary's path
// is unknown; the file system's.
func (s *System) SetAutostart(on bool) (bool, error) {
	if s.demo != nil {
		return false, errs.New(errs.BadInput, "the demo leaves Start at login as it is").
			WithHint("change it in your own Ferry, after you leave the demo")
	}
	exe, err := os.Executable()
	if err != nil {
		return false, errs.Wrap(err, errs.Internal, "find the running ferry-desktop: %v", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	login := autostart.System()
	if err := login.Set(exe, on); err != nil {
		return false, errs.From(err)
	}
	return login.Enabled()
}

// Version returns this build's version information.
func (s *System) Version() version.Info {
	return version.Get()
}

// Status returns the data directory's paths and why the core is not open, if
// it is not. Paths are empty when even they could not be resolved (an
// unusable FERRY_DATA_DIR); Problem then says so.
func (s *System) Status() Status {
	return s.sh.status()
}

// Doctor runs `ferry doctor`'s checks for this data directory. With the core
// open, the store check reports the store this app holds.
func (s *System) Doctor() service.SetupReport {
	ctx, cancel := context.WithTimeout(s.sh.calls, doctorTimeout)
	defer cancel()
	var report service.SetupReport
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		report, err = svc.CheckSetup(ctx, desktopCaller, service.CheckSetupRequest{})
		return err
	})
	if err != nil {
		report = checkSetupWithoutOwner(ctx)
	}
	return report
}

func (s *shell) status() Status {
	var st Status
	if p, err := s.paths(); err == nil {
		st.DataDir, st.ConfigDir, st.SettingsFile, st.StoreDir = p.DataDir, p.ConfigDir, p.SettingsFile(), p.StoreDir()
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.own == nil {
		st.Problem = wording.ForDesktop(errs.From(s.notOpen()))
	}
	return st
}
