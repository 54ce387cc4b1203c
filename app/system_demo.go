package app

import (
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/ferrydesk/ferry/backend/errs"
)

// DemoStatus tells the frontend whether this window is the demo.
type DemoStatus struct {
	// Active is true in `ferry-desktop --demo`: the window shows the demo's
	// banner with its "Leave the demo" button.
	Active bool `json:"active"`
}

// Demo reports whether this window is the demo. It never fails.
func (s *System) Demo() DemoStatus {
	return DemoStatus{Active: s.demo != nil}
}

// StartDemo starts the demo (`ferry-desktop --demo`) as a process of its
// own and hides this window until the demo ends. Errors: bad_input in the
// demo itself or while a demo started here runs; internal when the
// process does not start.
func (s *System) StartDemo() error {
	if s.demo != nil {
		return errs.New(errs.BadInput, "this window is the demo already")
	}
	if s.launch == nil {
		return errs.New(errs.Internal, "this window cannot start the demo")
	}
	return s.launch.Start()
}

// LeaveDemo closes the demo: the window closes, the simulator and the
// demo's browser stop and its directory is removed. Errors: bad_input
// outside the demo; internal before the window started.
func (s *System) LeaveDemo() error {
	if s.demo == nil {
		return errs.New(errs.BadInput, "this window is not the demo")
	}
	ctx, err := s.sh.windowContext()
	if err != nil {
		return err
	}
	wruntime.Quit(ctx)
	return nil
}
