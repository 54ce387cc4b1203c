// Package proctree starts a program as the root of a process tree that ends
// as one — on Linux and macOS a process group, on Windows a job object — and
// tells whether a pid names a running process. Ferry launches its browser
// through it: Chromium's renderers, GPU and utility processes must end with
// the browser, and a Ctrl+C in Ferry's terminal must reach Ferry (which
// then quits the browser cleanly), not the browser first.
package proctree

import (
	"os/exec"
	"sync"
)

// Tree is a started process and every process it starts.
type Tree struct {
	cmd *exec.Cmd

	mu    sync.Mutex
	ended bool
	sys   treeSys // the platform's handle on the tree (treeSys_*.go)
}

// Start starts cmd (which must not have been started) as the root of its
// own tree. On Windows the process is created suspended, put in a job object
// that ends all of it when the job is terminated or when Ferry exits, and
// only then resumed, so that no helper escapes the job. Errors: those of
// cmd.Start, or wrapped "put ... in a job object" when Windows refuses the
// job (the process is then ended, not left running untracked).
func Start(cmd *exec.Cmd) (*Tree, error) {
	t := &Tree{cmd: cmd}
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if err := t.adopt(); err != nil {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
		return nil, err
	}
	return t, nil
}

// PID is the root process' id.
func (t *Tree) PID() int { return t.cmd.Process.Pid }

// Kill ends the whole tree at once: the root and every process it started
// that is still in the tree (on Unix those that kept the process group, on
// Windows everything in the job). It may be called again, and after the
// root exited, to end helpers that outlived it; it never blocks.
func (t *Tree) Kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.kill()
	_ = t.cmd.Process.Kill()
}

// Release frees what the tree holds (the job handle on Windows) once the
// root was reaped and Kill was called; the processes are not touched
// further. It may be called more than once.
func (t *Tree) Release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.ended {
		t.ended = true
		t.release()
	}
}
