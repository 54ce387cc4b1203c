package main

import (
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/platform"
)

// haveConsole gives this test a console when it has none (under Wine
// started without a terminal, or by a service): console events exist only
// inside one, and the run started next shares it.
func haveConsole(t *testing.T) {
	t.Helper()
	kernel32 := windows.NewLazySystemDLL("kernel32.dll")
	if h, _, _ := kernel32.NewProc("GetConsoleWindow").Call(); h != 0 {
		return
	}
	if r, _, err := kernel32.NewProc("AllocConsole").Call(); r == 0 {
		t.Logf("AllocConsole: %v", err)
	}
}

// ownGroup starts the run in a process group of its own, so that the
// console event below reaches it and not this test.
func ownGroup(t *testing.T, cmd *exec.Cmd) {
	haveConsole(t)
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// pressStopKey sends what Ctrl+Break at the console sends, to the run's
// process group (Windows delivers Ctrl+C only to a whole console, never to
// one group; Go's runtime turns both into os.Interrupt).
func pressStopKey(t *testing.T, pid int) {
	t.Helper()
	err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(pid))
	if err != nil && platform.UnderWine() {
		// Wine (8.0) sends no console event to a process group: "Invalid
		// access" without a terminal, "Invalid handle" with one. Windows
		// does; Go's mapping of the events is the same there.
		t.Skipf("Wine sends no console event to a process group: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
}
