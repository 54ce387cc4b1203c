//go:build windows

package safetext

import (
	"os"

	"golang.org/x/sys/windows"
)

// enableEscapes turns on virtual-terminal processing on the console f
// (keeping its other modes) and reports whether the console has it. A
// character device that is not a console (NUL) has no mode: false.
func enableEscapes(f *os.File) bool {
	h := windows.Handle(f.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		return false
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return true
	}
	return windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}
