package confirm

import (
	"os"

	"golang.org/x/sys/windows"
)

// terminal reports whether f is a console (it has a console mode; NUL and
// pipes have none).
func terminal(f *os.File) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}
