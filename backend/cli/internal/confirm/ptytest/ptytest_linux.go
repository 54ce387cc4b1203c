package ptytest

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal and returns its controlling end (what is
// written there is typed on the terminal) and the terminal itself, both
// closed when the test ends.
func Open(t testing.TB) (control, tty *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { control.Close() })
	if err := unix.IoctlSetPointerInt(int(control.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(control.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("name the pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pseudo-terminal's terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return control, tty
}
