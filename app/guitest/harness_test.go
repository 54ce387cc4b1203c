//go:build gui

package guitest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// repoRoot is the module root: the test runs in app/guitest.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("find module root from %s: %v", dir, err)
	}
	return dir
}

// requireFrontendBuilt fails with the fix when frontend/dist has no build:
// the binary would embed an empty page and every check would time out.
func requireFrontendBuilt(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(repoRoot(t), "frontend", "dist", "index.html")); err != nil {
		t.Fatalf("frontend/dist/index.html is missing: build the frontend first (cd frontend && npm ci --no-audit --no-fund && npm run build), as `make test` does")
	}
}

var (
	buildMu  sync.Mutex
	builtBin = map[string]string{}
	binDir   string
)

// buildApp builds the desktop binary with the given tags once per test run.
func buildApp(t testing.TB, tags string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := builtBin[tags]; ok {
		return p
	}
	if binDir == "" {
		d, err := os.MkdirTemp("", "ferry-guitest-bin-")
		if err != nil {
			t.Fatal(err)
		}
		binDir = d
	}
	out := filepath.Join(binDir, "ferry-desktop-"+strings.ReplaceAll(tags, ",", "-"))
	cmd := exec.Command("go", "build", "-tags", tags, "-o", out, ".")
	cmd.Dir = repoRoot(t)
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags %s: %v\n%s", tags, err, b)
	}
	t.Logf("built %s in %s", filepath.Base(out), time.Since(start).Round(time.Millisecond))
	builtBin[tags] = out
	return out
}

// isolatedEnv is the process environment with every per-user location moved
// into dir, so the app never touches the real home, config or data dirs.
func isolatedEnv(dir string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "FERRY_DATA_DIR", "FERRY_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME":
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+filepath.Join(dir, "home"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "home", ".config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "home", ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "home", ".cache"),
		"XDG_STATE_HOME="+filepath.Join(dir, "home", ".local", "state"),
		"FERRY_DATA_DIR="+filepath.Join(dir, "data"),
	)
	return append(env, extra...)
}

// appProcess is a running desktop app with its log.
type appProcess struct {
	cmd     *exec.Cmd
	mu      sync.Mutex
	log     strings.Builder
	scanned chan struct{} // closed when the output ended
	done    chan struct{}
	err     error // Wait's result, valid after done
}

// startApp runs bin with args and env, collecting stderr and stdout.
func startApp(t testing.TB, bin string, env []string, args ...string) *appProcess {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	for _, kv := range env {
		// WebKit wants its cache directory to exist.
		if v, ok := strings.CutPrefix(kv, "XDG_CACHE_HOME="); ok {
			_ = os.MkdirAll(v, 0o700)
		}
	}
	cmd.Dir = repoRoot(t)
	// An *os.File, not an io.Writer: Wait then returns when the app has
	// exited, not when the last of its helpers (WebKit's processes end a
	// moment after it) has closed the inherited output.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	// Its own process group, so cleanup reaches the WebKit helper processes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	pw.Close() // the app and its helpers hold the write end now
	if err != nil {
		pr.Close()
		t.Fatalf("start %s: %v", bin, err)
	}
	p := &appProcess{cmd: cmd, scanned: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.scanned)
		defer pr.Close()
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		// SIGTERM first: the window closes as the user's close does, and
		// the app closes the browser it launched, which runs in a process
		// group of its own and would outlive a SIGKILL of the app's group,
		// writing into the profile while the test's directory is removed
		// (the CI's "browser-profile/Default: directory not empty"). Only
		// an app that hangs in its close is killed.
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(30 * time.Second):
				t.Logf("the app did not close within 30 s of SIGTERM: killed; its threads: %s", threadStates(cmd.Process.Pid))
			}
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
		// WebKit helpers left in the app's group end with it.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		p.drained()
		if t.Failed() {
			t.Logf("app log:\n%s", p.Log())
		}
	})
	return p
}

// Log returns everything the app printed so far.
func (p *appProcess) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// drained waits, after the app exited, until its output is read to the
// end: the helpers that share it end with the app or are killed with its
// group.
func (p *appProcess) drained() {
	select {
	case <-p.scanned:
	case <-time.After(10 * time.Second):
	}
}

// waitLine waits for a log line containing want and returns it.
func (p *appProcess) waitLine(ctx context.Context, want string) (string, error) {
	find := func() (string, bool) {
		for _, line := range strings.Split(p.Log(), "\n") {
			if strings.Contains(line, want) {
				return line, true
			}
		}
		return "", false
	}
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		if line, ok := find(); ok {
			return line, nil
		}
		select {
		case <-p.done:
			p.drained()
			if line, ok := find(); ok {
				return line, nil
			}
			return "", fmt.Errorf("app exited (%v) before logging %q", p.err, want)
		case <-ctx.Done():
			return "", fmt.Errorf("no %q in the app's log: %w", want, ctx.Err())
		case <-tick.C:
		}
	}
}

// eventWithin bounds a test's wait for something the window shows or the
// app does: long, since CI runs the GUI tests beside every other suite on
// two cores (a step that takes a second alone takes ten there), and a wait
// ends as soon as its event happens: only a window that never shows it
// waits this long.
const eventWithin = 60 * time.Second

// closeWithin is how long an app asked to close may take to end before a
// test calls its close hung: long, since on a loaded machine a WebKit
// window takes seconds to go, and a close that truly hangs never ends.
const closeWithin = 60 * time.Second

// waitExit waits for the process to end and returns its exit code.
func (p *appProcess) waitExit(timeout time.Duration) (int, error) {
	select {
	case <-p.done:
	case <-time.After(timeout):
		// Where the threads wait, as the kernel sees them (a process past
		// its exit prints nothing on SIGQUIT); then a Go program's own
		// stacks, which it prints on SIGQUIT while it still runs.
		threads := threadStates(p.cmd.Process.Pid)
		_ = p.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
		}
		return -1, fmt.Errorf("app still running %s after it was asked to close; its threads: %s; its Go stacks, if it still ran Go, are in the app's log", timeout, threads)
	}
	p.drained() // its last lines, which callers look for
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode(), nil
	}
	if p.err != nil {
		return -1, p.err
	}
	return 0, nil
}

// threadStates tells, from /proc, what each of pid's threads is doing:
// its state (R running, S sleeping, D in an uninterruptible wait, Z
// exited, t traced, T stopped) and the kernel function it waits in
// (readable as root), threads alike counted once; and the kernel stack of
// the main thread.
func threadStates(pid int) string {
	dir := fmt.Sprintf("/proc/%d", pid)
	tasks, err := os.ReadDir(filepath.Join(dir, "task"))
	if err != nil {
		return fmt.Sprintf("(no /proc entry: %v)", err)
	}
	count := map[string]int{}
	var order []string
	for _, task := range tasks {
		td := filepath.Join(dir, "task", task.Name())
		stat, _ := os.ReadFile(filepath.Join(td, "stat"))
		comm, state := "?", "?"
		if open, shut := strings.IndexByte(string(stat), '('), strings.LastIndexByte(string(stat), ')'); open >= 0 && shut > open {
			comm = string(stat[open+1 : shut])
			if f := strings.Fields(string(stat[shut+1:])); len(f) > 0 {
				state = f[0]
			}
		}
		where, _ := os.ReadFile(filepath.Join(td, "stack"))
		top := strings.Fields(string(where))
		if len(top) > 1 {
			top = top[1:2] // "[<0>] function+off/len"
		}
		key := fmt.Sprintf("%s %s in %s", comm, state, strings.Join(top, ""))
		if count[key] == 0 {
			order = append(order, key)
		}
		count[key]++
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d× %s", count[k], k))
	}
	status, _ := os.ReadFile(filepath.Join(dir, "status"))
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "State:") || strings.HasPrefix(line, "SigPnd:") || strings.HasPrefix(line, "ShdPnd:") {
			parts = append(parts, strings.Join(strings.Fields(line), " "))
		}
	}
	if stack, err := os.ReadFile(filepath.Join(dir, "stack")); err == nil {
		parts = append(parts, "main thread's kernel stack: "+strings.Join(strings.Fields(string(stack)), " "))
	}
	return strings.Join(parts, "; ")
}

// freePort returns a loopback port nobody listens on right now.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// requireDisplay fails early with the command to run when the test has no X
// display: everything here opens real windows.
func requireDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		t.Fatal(`no DISPLAY: run under Xvfb and a session bus: xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- go test -tags gui ./app/guitest/`)
	}
}

// writeSettings writes a settings file with only the theme set (every other
// setting takes its default) into the data directory of dir.
func writeSettings(t *testing.T, dir, theme string) {
	t.Helper()
	file := filepath.Join(dir, "data", "settings.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(fmt.Sprintf("{\n  \"theme\": %q\n}\n", theme)), 0o600); err != nil {
		t.Fatal(err)
	}
}
