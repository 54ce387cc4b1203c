package proctree

import (
	"bytes"
	"os"
	"strconv"
)

// Zombie reports whether pid is a process that has ended but was not
// reaped yet (state Z or X in /proc/<pid>/stat): it holds no files and no
// locks, though Alive still sees it. An orphan whose parent died is such a
// zombie for as long as the one that inherits it does not reap it.
func Zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false
	}
	return b[i+2] == 'Z' || b[i+2] == 'X'
}
