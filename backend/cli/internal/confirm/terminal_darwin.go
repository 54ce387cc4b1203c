package confirm

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminal reports whether f has terminal attributes.
func terminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TIOCGETA)
	return err == nil
}
