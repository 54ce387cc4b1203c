package launch

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/proctree"
)

// Process is a browser Ferry started. Its stderr is drained for the life of
// the process (a full pipe would stall Chromium), keeping the DevTools
// address and the last lines for diagnostics.
type Process struct {
	cmd      *exec.Cmd
	tree     *proctree.Tree // the browser and its helpers, ended as one
	pid      int
	exited   chan struct{}
	wsURL    chan string
	endpoint string // the DevTools address read from wsURL, once Start has it

	mu       sync.Mutex
	lastLine []string
	waitErr  error
}

var devtoolsLine = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

func startProcess(bin string, args []string) (*Process, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdout = nil // /dev/null: no copying goroutine, as the process is reaped with os.Process.Wait
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	tree, err := proctree.Start(cmd)
	if err != nil {
		stderr.Close()
		return nil, err
	}
	p := &Process{cmd: cmd, tree: tree, pid: cmd.Process.Pid, exited: make(chan struct{}), wsURL: make(chan string, 1)}
	drained := make(chan struct{})
	go func() {
		p.drain(stderr)
		close(drained)
	}()
	go func() {
		// Reap with os.Process.Wait, not exec.Cmd.Wait: the latter closes
		// the stderr pipe at once and can lose the browser's last words,
		// which are the diagnosis of a browser that dies at start. Give the
		// reader a moment to reach EOF (a leftover child may hold the pipe
		// open), then close our end.
		state, err := cmd.Process.Wait()
		select {
		case <-drained:
		case <-time.After(time.Second):
		}
		stderr.Close()
		if err == nil && !state.Success() {
			err = &exec.ExitError{ProcessState: state}
		}
		p.mu.Lock()
		p.waitErr = err
		p.mu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

func (p *Process) drain(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	found := false
	for sc.Scan() {
		line := sc.Text()
		if !found {
			if m := devtoolsLine.FindStringSubmatch(line); m != nil {
				found = true
				p.wsURL <- m[1]
				continue
			}
		}
		// Debian's wrapper script prints "[: …: unexpected operator" at
		// every start: noise, not a diagnosis.
		if strings.Contains(line, "unexpected operator") {
			continue
		}
		p.mu.Lock()
		p.lastLine = append(p.lastLine, line)
		if len(p.lastLine) > 20 {
			p.lastLine = p.lastLine[len(p.lastLine)-20:]
		}
		p.mu.Unlock()
	}
	_, _ = io.Copy(io.Discard, r)
}

// stderrTail is the last lines the browser wrote, for error evidence.
func (p *Process) stderrTail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return tail(strings.Join(p.lastLine, "\n"), 800)
}

func (p *Process) exitStatus() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}

// PID is the browser's process id.
func (p *Process) PID() int { return p.pid }

// Endpoint is the DevTools websocket address the browser offered, on
// loopback.
func (p *Process) Endpoint() string { return p.endpoint }

// Stop waits for the browser to exit (the caller has asked it to quit:
// Browser.close) until ctx ends, then kills its whole tree (renderers,
// zygote, GPU process: a process group on Unix, a job object on Windows)
// and waits again briefly. It fails when the browser has not exited 5 s
// after the kill.
func (p *Process) Stop(ctx context.Context) error {
	select {
	case <-p.exited:
		// Helpers (renderers, zygote) of a browser that died hard can
		// outlive it: end the tree too.
		p.end()
		return nil
	case <-ctx.Done():
	}
	p.tree.Kill()
	select {
	case <-p.exited:
		p.end()
		return nil
	case <-time.After(5 * time.Second):
		return errBrowserWontExit
	}
}

// Kill ends the browser's process tree at once (a failed launch), waiting
// briefly for the browser to exit.
func (p *Process) Kill() {
	p.tree.Kill()
	select {
	case <-p.exited:
		p.end()
	case <-time.After(5 * time.Second):
	}
}

// end kills what is left of the tree of an exited browser and frees the
// tree's handle.
func (p *Process) end() {
	p.tree.Kill()
	p.tree.Release()
}

// processAlive reports whether pid may name a running process (see
// proctree.Alive).
func processAlive(pid int) bool { return proctree.Alive(pid) }
