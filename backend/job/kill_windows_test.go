package job

import (
	"os"

	"golang.org/x/sys/windows"
)

// killedExitCode is the exit code killSelf ends the process with: Windows
// has no signals, and a process ended by TerminateProcess exits with the
// code its killer names, here one a Go program never returns by itself.
const killedExitCode = 0xDEAD

// killSelf ends this process at once, as Task Manager's End task would:
// TerminateProcess runs no deferred call and flushes nothing.
func killSelf() { _ = windows.TerminateProcess(windows.CurrentProcess(), killedExitCode) }

// killed reports whether a child ended by killSelf, not by returning.
func killed(ps *os.ProcessState) bool { return ps.ExitCode() == killedExitCode }
