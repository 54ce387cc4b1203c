package safetext

import (
	"os"

	"golang.org/x/sys/unix"
)

// enableEscapes reports whether f is a terminal (it has terminal
// attributes; /dev/null does not): macOS terminals interpret escapes.
func enableEscapes(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TIOCGETA)
	return err == nil
}
