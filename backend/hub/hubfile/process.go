package hubfile

import "github.com/ferrydesk/ferry/backend/proctree"

// ProcessAlive reports whether a process with the given pid may be running
// (on Unix signal 0, on Windows an open process with no exit code; a
// process of another user counts as alive). Pids are reused, so a true
// answer only means "maybe": callers confirm by connecting.
func ProcessAlive(pid int) bool { return proctree.Alive(pid) }
