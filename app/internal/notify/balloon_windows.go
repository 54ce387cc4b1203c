package notify

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/app/internal/ico"
	"github.com/ferrydesk/ferry/app/internal/win32"
)

// Windows notifications: a balloon on a notification icon of Ferry's own
// (Shell_NotifyIconW with NIF_INFO), which Windows 10 and 11 show as a toast
// and keep in the notification centre. A WinRT toast
// (ToastNotificationManager) would need an AppUserModelID registered
// through a Start-menu shortcut, so it would stay silent in the portable
// zip and in a build run from its folder, and its COM interfaces would be
// written by hand without cgo; the balloon needs neither. The icon is
// added for a notice and removed once its balloon is clicked, dismissed or
// timed out, so it is not a second tray icon beside the tray's.

// System starts the notification icon's window on its own thread;
// when that fails it logs one line and notifications are off.
func System(_ string, icon []byte, log *slog.Logger, onClick func(target string)) Notifier {
	if small, err := ico.PNGOfSize(icon, 32); err == nil {
		icon = small // the notification area's size at 200 %, not the 512 px PNG
	}
	n, err := startBalloonNotifier(icon, onClick)
	if err != nil {
		log.Info("desktop notifications off: cannot set up the notification icon", "err", err)
		return Nop{}
	}
	return n
}

var (
	procRegisterClassExW         = win32.User32.NewProc("RegisterClassExW")
	procCreateWindowExW          = win32.User32.NewProc("CreateWindowExW")
	procDefWindowProcW           = win32.User32.NewProc("DefWindowProcW")
	procDestroyWindow            = win32.User32.NewProc("DestroyWindow")
	procPostMessageW             = win32.User32.NewProc("PostMessageW")
	procPostQuitMessage          = win32.User32.NewProc("PostQuitMessage")
	procTranslateMessage         = win32.User32.NewProc("TranslateMessage")
	procDispatchMessageW         = win32.User32.NewProc("DispatchMessageW")
	procCreateIconFromResourceEx = win32.User32.NewProc("CreateIconFromResourceEx")
	procLoadIconW                = win32.User32.NewProc("LoadIconW")
	procDestroyIcon              = win32.User32.NewProc("DestroyIcon")
	procShellNotifyIconW         = win32.Shell32.NewProc("Shell_NotifyIconW")
	procGetModuleHandleW         = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetModuleHandleW")
)

const (
	wmDestroy = 0x0002
	wmClose   = 0x0010
	wmApp     = 0x8000
	// wmShowNotice asks the window's thread to show the queued notice;
	// wmNotifyIcon is the icon's callback message.
	wmShowNotice = wmApp + 1
	wmNotifyIcon = wmApp + 2

	wmLButtonUp = 0x0202

	nimAdd        = 0
	nimModify     = 1
	nimDelete     = 2
	nimSetVersion = 4

	nifMessage = 0x01
	nifIcon    = 0x02
	nifTip     = 0x04
	nifInfo    = 0x10

	niifInfo    = 0x01
	niifWarning = 0x02

	notifyIconVersion4 = 4

	ninSelect           = 0x0400 // WM_USER: the icon itself clicked (version 4)
	ninBalloonHide      = 0x0403
	ninBalloonTimeout   = 0x0404
	ninBalloonUserClick = 0x0405

	idiApplication = 32512
	lrDefaultColor = 0
)

// notifyIconData is NOTIFYICONDATAW (shellapi.h, Vista and later) with
// 64-bit Windows' natural alignment.
type notifyIconData struct {
	CbSize           uint32
	HWnd             windows.Handle
	UID              uint32
	UFlags           uint32
	UCallbackMessage uint32
	HIcon            windows.Handle
	SzTip            [128]uint16
	DwState          uint32
	DwStateMask      uint32
	SzInfo           [256]uint16
	UVersion         uint32
	SzInfoTitle      [64]uint16
	DwInfoFlags      uint32
	GuidItem         windows.GUID
	HBalloonIcon     windows.Handle
}

// wndClassEx is WNDCLASSEXW.
type wndClassEx struct {
	Size       uint32
	Style      uint32
	WndProc    uintptr
	ClsExtra   int32
	WndExtra   int32
	Instance   windows.Handle
	Icon       windows.Handle
	Cursor     windows.Handle
	Background windows.Handle
	MenuName   *uint16
	ClassName  *uint16
	IconSm     windows.Handle
}

// balloonNotifier owns the notification icon's hidden window. Its window
// procedure runs on the window's thread; Notify and Close only post to it.
type balloonNotifier struct {
	onClick func(target string)
	icon    windows.Handle
	hwnd    windows.Handle
	done    chan struct{}

	mu      sync.Mutex
	pending *Notice // the notice to show next
	target  string  // what a click on the shown balloon opens
	added   bool    // the icon is in the notification area
	closed  bool
}

// theBalloon is the one notifier the shared window procedure serves.
var (
	theBalloonMu sync.Mutex
	theBalloon   *balloonNotifier
	balloonProc  = windows.NewCallback(balloonWndProc)
	registerOnce sync.Once
	registerErr  error
)

var balloonClass = windows.StringToUTF16Ptr("FerryNotificationIcon")

// hwndMessage is HWND_MESSAGE, the parent of message-only windows.
const hwndMessage = ^uintptr(2) // (HWND)-3

func startBalloonNotifier(png []byte, onClick func(string)) (*balloonNotifier, error) {
	theBalloonMu.Lock()
	if theBalloon != nil {
		theBalloonMu.Unlock()
		return nil, errors.New("a notification icon is already set up")
	}
	n := &balloonNotifier{onClick: onClick, done: make(chan struct{})}
	theBalloon = n
	theBalloonMu.Unlock()

	ready := make(chan error, 1)
	go n.loop(png, ready)
	if err := <-ready; err != nil {
		<-n.done
		theBalloonMu.Lock()
		theBalloon = nil
		theBalloonMu.Unlock()
		return nil, err
	}
	return n, nil
}

// loop creates the window and pumps its messages on one locked thread
// until the window is destroyed.
func (n *balloonNotifier) loop(png []byte, ready chan<- error) {
	defer close(n.done)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	inst, _, _ := procGetModuleHandleW.Call(0)
	registerOnce.Do(func() {
		wc := wndClassEx{WndProc: balloonProc, Instance: windows.Handle(inst), ClassName: balloonClass}
		wc.Size = uint32(unsafe.Sizeof(wc))
		if r, _, err := procRegisterClassExW.Call(uintptr(unsafe.Pointer(&wc))); r == 0 {
			registerErr = fmt.Errorf("register the notification window class: %w", err)
		}
	})
	if registerErr != nil {
		ready <- registerErr
		return
	}
	n.icon = iconFromPNG(png)
	// A message-only window (parent HWND_MESSAGE): Explorer posts the
	// icon's callbacks to it, and no display window is made for it (under
	// Wine a top-level one goes through the X driver, which on a loaded
	// machine once failed the creation with no error).
	hwnd, _, err := procCreateWindowExW.Call(0, uintptr(unsafe.Pointer(balloonClass)), uintptr(unsafe.Pointer(windows.StringToUTF16Ptr("Ferry notifications"))),
		0, 0, 0, 0, 0, hwndMessage, 0, inst, 0)
	if hwnd == 0 {
		ready <- fmt.Errorf("create the notification window: %w", err)
		return
	}
	n.mu.Lock()
	n.hwnd = windows.Handle(hwnd)
	n.mu.Unlock()
	ready <- nil
	var m win32.Msg
	for {
		r, _, _ := win32.GetMessageW.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0)
		if int32(r) <= 0 {
			break
		}
		procTranslateMessage.Call(uintptr(unsafe.Pointer(&m)))
		procDispatchMessageW.Call(uintptr(unsafe.Pointer(&m)))
	}
	if n.icon != 0 {
		procDestroyIcon.Call(uintptr(n.icon))
	}
}

// iconFromPNG makes the icon from Ferry's PNG (Windows reads PNG icon
// resources since Vista), else the stock application icon.
func iconFromPNG(png []byte) windows.Handle {
	if len(png) > 0 {
		h, _, _ := procCreateIconFromResourceEx.Call(uintptr(unsafe.Pointer(&png[0])), uintptr(len(png)), 1, 0x00030000, 0, 0, lrDefaultColor)
		if h != 0 {
			return windows.Handle(h)
		}
	}
	h, _, _ := procLoadIconW.Call(0, idiApplication)
	return windows.Handle(h)
}

// Notify queues nt and asks the window's thread to show it.
func (n *balloonNotifier) Notify(nt Notice) error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return errors.New("the notification icon is closed")
	}
	n.pending = &nt
	hwnd := n.hwnd
	n.mu.Unlock()
	if r, _, err := procPostMessageW.Call(uintptr(hwnd), wmShowNotice, 0, 0); r == 0 {
		return fmt.Errorf("post the notice to the notification window: %w", err)
	}
	return nil
}

// Close removes the icon and ends the window's thread.
func (n *balloonNotifier) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	hwnd := n.hwnd
	n.mu.Unlock()
	procPostMessageW.Call(uintptr(hwnd), wmClose, 0, 0)
	<-n.done
	theBalloonMu.Lock()
	theBalloon = nil
	theBalloonMu.Unlock()
	return nil
}

func (n *balloonNotifier) data() notifyIconData {
	d := notifyIconData{HWnd: n.hwnd, UID: 1}
	d.CbSize = uint32(unsafe.Sizeof(d))
	return d
}

// show puts the pending notice in the icon's balloon (window thread).
func (n *balloonNotifier) show() {
	n.mu.Lock()
	nt := n.pending
	n.pending = nil
	if nt != nil {
		n.target = nt.Target
	}
	added := n.added
	n.mu.Unlock()
	if nt == nil {
		return
	}
	d := n.data()
	d.UFlags = nifMessage | nifIcon | nifTip | nifInfo
	d.UCallbackMessage = wmNotifyIcon
	d.HIcon = n.icon
	copyUTF16(d.SzTip[:], "Ferry")
	title, body := balloonText(*nt)
	copyUTF16(d.SzInfoTitle[:], title)
	copyUTF16(d.SzInfo[:], body)
	d.DwInfoFlags = niifInfo
	if nt.Urgent {
		d.DwInfoFlags = niifWarning
	}
	if added {
		procShellNotifyIconW.Call(nimModify, uintptr(unsafe.Pointer(&d)))
		return
	}
	if r, _, _ := procShellNotifyIconW.Call(nimAdd, uintptr(unsafe.Pointer(&d))); r == 0 {
		return
	}
	v := n.data()
	v.UVersion = notifyIconVersion4
	procShellNotifyIconW.Call(nimSetVersion, uintptr(unsafe.Pointer(&v)))
	n.mu.Lock()
	n.added = true
	n.mu.Unlock()
}

// remove takes the icon out of the notification area (window thread).
func (n *balloonNotifier) remove() {
	n.mu.Lock()
	added := n.added
	n.added = false
	n.mu.Unlock()
	if added {
		d := n.data()
		procShellNotifyIconW.Call(nimDelete, uintptr(unsafe.Pointer(&d)))
	}
}

func balloonWndProc(hwnd, msg, wparam, lparam uintptr) uintptr {
	theBalloonMu.Lock()
	n := theBalloon
	theBalloonMu.Unlock()
	if n == nil {
		r, _, _ := procDefWindowProcW.Call(hwnd, msg, wparam, lparam)
		return r
	}
	switch msg {
	case wmShowNotice:
		n.show()
		return 0
	case wmNotifyIcon:
		switch uint32(lparam) & 0xffff { // version 4: the event in LOWORD
		case ninBalloonUserClick, ninSelect, wmLButtonUp:
			n.mu.Lock()
			target := n.target
			n.mu.Unlock()
			n.remove()
			go n.onClick(target) // never block the window's thread
		case ninBalloonTimeout, ninBalloonHide:
			n.remove()
		}
		return 0
	case wmClose:
		n.remove()
		procDestroyWindow.Call(hwnd)
		return 0
	case wmDestroy:
		procPostQuitMessage.Call(0)
		return 0
	}
	r, _, _ := procDefWindowProcW.Call(hwnd, msg, wparam, lparam)
	return r
}

// copyUTF16 writes s into a fixed WCHAR field, NUL-terminated and cut to
// fit (balloonText already fits the balloon's fields).
func copyUTF16(dst []uint16, s string) {
	u, _ := windows.UTF16FromString(s)
	if len(u) > len(dst) {
		u = u[:len(dst)]
		u[len(u)-1] = 0
	}
	copy(dst, u)
}

var _ Notifier = (*balloonNotifier)(nil)
