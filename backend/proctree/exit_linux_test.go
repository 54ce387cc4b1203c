package proctree

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// watchExit opens a pidfd on pid now (while it surely runs) and returns a
// function that waits until that process has exited; the bound only
// catches a hang. A pidfd is readable once the process exited, reaped or
// not, so a helper left a zombie under a non-reaping init still counts.
func watchExit(t *testing.T, pid int) func(*testing.T) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return func(t *testing.T) {
		t.Helper()
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, int((30 * time.Second).Milliseconds()))
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				t.Fatalf("poll pidfd: %v", err)
			}
			if n == 0 {
				t.Fatalf("process %d still runs after Kill", pid)
			}
			return
		}
	}
}
