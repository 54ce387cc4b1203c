package win32

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// The Windows DLLs the desktop's platform parts call, loaded from System32
// only.
var (
	User32  = windows.NewLazySystemDLL("user32.dll")
	Shell32 = windows.NewLazySystemDLL("shell32.dll")

	// GetMessageW waits for the calling thread's next message.
	GetMessageW = User32.NewProc("GetMessageW")
)

// Msg is user32's MSG.
type Msg struct {
	Hwnd    uintptr
	Message uint32
	WParam  uintptr
	LParam  uintptr
	Time    uint32
	Pt      struct{ X, Y int32 }
	Private uint32
}

// Pointer passes a Go value's address to a Win32 call.
func Pointer[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
