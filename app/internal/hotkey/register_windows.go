package hotkey

import (
	"errors"
	"fmt"
	"runtime"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/app/internal/win32"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

var (
	procRegisterHotKey    = win32.User32.NewProc("RegisterHotKey")
	procUnregisterHotKey  = win32.User32.NewProc("UnregisterHotKey")
	procPeekMessageW      = win32.User32.NewProc("PeekMessageW")
	procPostThreadMessage = win32.User32.NewProc("PostThreadMessageW")
)

const (
	wmHotkey = 0x0312
	wmQuit   = 0x0012
	// winHotkeyID identifies Ferry's one hotkey on its own thread.
	winHotkeyID = 1
	// errHotkeyAlreadyRegistered is ERROR_HOTKEY_ALREADY_REGISTERED.
	errHotkeyAlreadyRegistered = windows.Errno(1409)
)

// winGrabber registers the combination with RegisterHotKey on a goroutine
// locked to its own OS thread: WM_HOTKEY is posted to the queue of the
// thread that registered it, and only that thread may unregister it.
type winGrabber struct{}

func (winGrabber) native() {}

// Grab registers h and calls onPress for each WM_HOTKEY until release is
// called. A combination another program holds is errHotkeyTaken; a key
// Windows has no code for is errNoKeycode.
func (winGrabber) Grab(h config.Hotkey, onPress func()) (func(), error) {
	mods, vk, err := winHotkey(h)
	if err != nil {
		return nil, err
	}
	type started struct {
		tid uint32
		err error
	}
	ready := make(chan started, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var m win32.Msg
		// The thread gets its message queue here, before anyone posts to it.
		procPeekMessageW.Call(uintptr(win32.Pointer(&m)), 0, 0, 0, 0)
		tid := windows.GetCurrentThreadId()
		r, _, callErr := procRegisterHotKey.Call(0, winHotkeyID, uintptr(mods), uintptr(vk))
		if r == 0 {
			ready <- started{err: callErr}
			return
		}
		defer procUnregisterHotKey.Call(0, winHotkeyID)
		ready <- started{tid: tid}
		for {
			r, _, _ := win32.GetMessageW.Call(uintptr(win32.Pointer(&m)), 0, 0, 0)
			if int32(r) <= 0 || m.Message == wmQuit {
				return
			}
			if m.Message == wmHotkey && m.WParam == winHotkeyID {
				onPress()
			}
		}
	}()
	st := <-ready
	if st.err != nil {
		<-done
		return nil, winHotkeyError(h, st.err)
	}
	release := func() {
		procPostThreadMessage.Call(uintptr(st.tid), wmQuit, 0, 0)
		<-done
	}
	return release, nil
}

// winHotkeyError turns RegisterHotKey's failure into what Apply reports.
func winHotkeyError(h config.Hotkey, err error) error {
	if errors.Is(err, errHotkeyAlreadyRegistered) {
		return fmt.Errorf("register %s: %w", h, errHotkeyTaken)
	}
	return errs.Wrap(err, errs.EnvironmentNotReady, "Windows refused the global hotkey %s: %v", h, err).
		WithEvidence("hotkey", h.String()).
		WithHint("choose another combination in Settings; the tray's Quick prompt… works meanwhile")
}

var _ nativeGrabber = winGrabber{}
