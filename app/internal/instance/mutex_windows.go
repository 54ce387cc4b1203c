package instance

import (
	"errors"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/app/internal/win32"
	"github.com/ferrydesk/ferry/backend/errs"
)

// System is a named mutex per data directory and a named
// event the first window waits on.
func System() Guard { return namedMutexGuard{} }

// namedMutexGuard: the mutex Local\Ferry-<hash> is held by the first window
// of a data directory; the auto-reset event Local\Ferry-<hash>-show is how a
// later start asks it to come forward.
type namedMutexGuard struct{}

var procAllowSetForegroundWindow = win32.User32.NewProc("AllowSetForegroundWindow")

const asfwAny = ^uintptr(0) // ASFW_ANY

func (namedMutexGuard) Claim(dataDir string, quiet bool, onSecond func()) (bool, func(), error) {
	name := instanceName(dataDir)
	mutexName, _ := windows.UTF16PtrFromString(name)
	eventName, _ := windows.UTF16PtrFromString(name + "-show")
	mu, err := windows.CreateMutex(nil, false, mutexName)
	if errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
		windows.CloseHandle(mu)
		if quiet {
			return false, func() {}, nil
		}
		ev, err := windows.OpenEvent(windows.EVENT_MODIFY_STATE, false, eventName)
		if err != nil {
			return false, nil, instanceError(err, "reach the running Ferry", name)
		}
		defer windows.CloseHandle(ev)
		// The user just started this process, so it may hand the right
		// to take the foreground to the running one.
		procAllowSetForegroundWindow.Call(asfwAny)
		if err := windows.SetEvent(ev); err != nil {
			return false, nil, instanceError(err, "ask the running Ferry to show its window", name)
		}
		return false, func() {}, nil
	}
	if err != nil {
		return false, nil, instanceError(err, "claim the data directory's window", name)
	}
	show, err := windows.CreateEvent(nil, 0, 0, eventName)
	if err != nil && !errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
		windows.CloseHandle(mu)
		return false, nil, instanceError(err, "set up the single-instance signal", name)
	}
	stop, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(show)
		windows.CloseHandle(mu)
		return false, nil, instanceError(err, "set up the single-instance signal", name)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		handles := []windows.Handle{show, stop}
		for {
			r, err := windows.WaitForMultipleObjects(handles, false, windows.INFINITE)
			if err != nil || r != windows.WAIT_OBJECT_0 {
				return
			}
			onSecond()
		}
	}()
	release := func() {
		_ = windows.SetEvent(stop)
		<-done
		windows.CloseHandle(stop)
		windows.CloseHandle(show)
		windows.CloseHandle(mu)
	}
	return true, release, nil
}

func instanceError(err error, what, name string) error {
	return errs.Wrap(err, errs.EnvironmentNotReady, "%s (%s): %v", what, name, err).
		WithEvidence("object", name).
		WithHint("close Ferry from its tray icon (or end ferry-desktop.exe in Task Manager), then start it again")
}

var _ Guard = namedMutexGuard{}
