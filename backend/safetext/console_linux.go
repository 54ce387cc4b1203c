package safetext

import (
	"os"

	"golang.org/x/sys/unix"
)

// enableEscapes reports whether f is a terminal (it has terminal
// attributes; /dev/null does not): Linux terminals interpret escapes.
func enableEscapes(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
