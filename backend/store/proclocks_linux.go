//go:build linux

package store

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lockHolderPID finds the pid holding a FLOCK on dir in /proc/locks, matching
// the directory's device and inode. It is the fallback when the OWNER sidecar
// is missing or names a process that no longer holds the lock.
func lockHolderPID(dir string) (int, bool) {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return 0, false
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	major, minor := uint64(unix.Major(uint64(st.Dev))), uint64(unix.Minor(uint64(st.Dev)))
	inodeOnly := 0
	inodeOnlyPID := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; waiters carry "->".
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" {
			continue
		}
		pid, err := strconv.Atoi(fields[4])
		if err != nil {
			continue
		}
		dev := strings.Split(fields[5], ":")
		if len(dev) != 3 {
			continue
		}
		ino, err := strconv.ParseUint(dev[2], 10, 64)
		if err != nil || ino != uint64(st.Ino) {
			continue
		}
		maj, err1 := strconv.ParseUint(dev[0], 16, 64)
		mnr, err2 := strconv.ParseUint(dev[1], 16, 64)
		if err1 == nil && err2 == nil && maj == major && mnr == minor {
			return pid, true
		}
		// Overlay and FUSE file systems can report another device number
		// in /proc/locks than stat does; an inode match alone still counts
		// when it is the only one.
		inodeOnly++
		inodeOnlyPID = pid
	}
	if inodeOnly == 1 {
		return inodeOnlyPID, true
	}
	return 0, false
}

// processName is the command name of pid ("ferry"), or "" when unknown.
func processName(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
