//go:build linux

package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// adoptOrphans makes this process the subreaper of its descendants: the
// processes the demo's window leaves behind become its children, so that
// waitOrphans can wait for them before the demo's directory goes.
func adoptOrphans() error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return fmt.Errorf("become the subreaper: %w", e)
	}
	return nil
}

// waitOrphans reaps this process's children until none is left, killing
// those still running after within; it returns the pids it killed.
func waitOrphans(within time.Duration) []int {
	deadline := time.Now().Add(within)
	var killed []int
	for {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		kids := childrenOf(os.Getpid())
		if len(kids) == 0 {
			return killed
		}
		if time.Now().After(deadline) {
			for _, k := range kids {
				_ = syscall.Kill(k, syscall.SIGKILL)
				killed = append(killed, k)
			}
			if time.Now().After(deadline.Add(5 * time.Second)) {
				return killed
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) >= 2 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}
