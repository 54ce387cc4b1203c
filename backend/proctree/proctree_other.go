//go:build !unix && !windows

package proctree

import (
	"os"
	"os/exec"
)

type treeSys struct{}

func prepare(*exec.Cmd) {}

func (t *Tree) adopt() error { return nil }

func (t *Tree) kill() {}

func (t *Tree) release() {}

// Alive cannot probe a pid here; it reports whether os.FindProcess accepts
// it, so a pid is treated as possibly running.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	_, err := os.FindProcess(pid)
	return err == nil
}
