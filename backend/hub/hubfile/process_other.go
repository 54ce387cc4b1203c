//go:build !unix

package hubfile

import "os"

// ProcessAlive reports whether a process with the given pid may exist. Where
// signal 0 is not available the answer comes from os.FindProcess, which on
// Windows opens the process; callers confirm by connecting.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
