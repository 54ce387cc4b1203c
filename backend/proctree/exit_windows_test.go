package proctree

import (
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// watchExit opens pid now (while it surely runs) and returns a function
// that waits until that process has exited; the bound only catches a hang.
func watchExit(t *testing.T, pid int) func(*testing.T) {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		t.Fatalf("open process %d: %v", pid, err)
	}
	t.Cleanup(func() { windows.CloseHandle(h) })
	return func(t *testing.T) {
		t.Helper()
		ev, err := windows.WaitForSingleObject(h, uint32((30 * time.Second).Milliseconds()))
		if err != nil {
			t.Fatalf("wait for process %d: %v", pid, err)
		}
		if ev != windows.WAIT_OBJECT_0 {
			t.Fatalf("process %d still runs after Kill", pid)
		}
	}
}
