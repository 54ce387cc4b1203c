//go:build unix

package search

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process used so far (user and system). On a
// machine shared with other work it shows a query's own cost, which the
// wall-clock latencies mix with waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
