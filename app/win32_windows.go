package app

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// The Windows DLLs the desktop's platform parts call, loaded from System32
// only.
var (
	user32  = windows.NewLazySystemDLL("user32.dll")
	shell32 = windows.NewLazySystemDLL("shell32.dll")

	procGetMessageW = user32.NewProc("GetMessageW")
)

// winMsg is user32's MSG.
type winMsg struct {
	Hwnd    uintptr
	Message uint32
	WParam  uintptr
	LParam  uintptr
	Time    uint32
	Pt      struct{ X, Y int32 }
	Private uint32
}

// unsafePointer passes a Go value's address to a Win32 call.
func unsafePointer[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
