//go:build unix

package job

import (
	"os"
	"syscall"
)

// killSelf ends this process at once, as a crash or kill -9 would: no
// deferred call, no flush.
func killSelf() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }

// killed reports whether a child ended by killSelf (SIGKILL), not by
// returning.
func killed(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}
