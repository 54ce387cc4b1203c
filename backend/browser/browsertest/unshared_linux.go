//go:build linux

package browsertest

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Flags are the switches the tests start Chromium with (TOOLCHAIN: without
// the background-networking ones the closed network refuses connections;
// as root the sandbox must be off).
var Flags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"}

// Unshared is a browser running in a mount namespace of its own.
type Unshared struct {
	// Endpoint is its DevTools websocket address, on loopback.
	Endpoint string
	// Hidden is a file this process created in os.TempDir() before the
	// browser started, which the browser's namespace was checked not to
	// see; a test can ask the browser itself to open it.
	Hidden string
}

// unsharedScript runs inside the new mount namespace: it covers the
// temporary directory ($1) with a fresh tmpfs, checks that the file $2
// created outside is gone from view, and becomes the browser.
const unsharedScript = `set -e
mount -t tmpfs -o size=256m,mode=1777 ferry-unshared "$1"
if [ -e "$2" ]; then echo "ferry-unshared: $2 is still visible" >&2; exit 97; fi
mkdir "$1/ferry-unshared-profile"
shift 2
exec "$@"`

// StartUnshared starts binary (headless, with Flags and args, DevTools on a
// free loopback port) under `unshare --mount --propagation private` with a
// fresh tmpfs over os.TempDir(): the browser's downloads, profile and
// temporary files are where this process cannot see them, while the network
// (loopback included) is shared. It needs root and util-linux's unshare; it
// fails the test when the namespace still sees a file created here. The
// browser is killed when the test ends, and its tmpfs goes with it.
func StartUnshared(t testing.TB, binary string, args ...string) Unshared {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatalf("find unshare (util-linux): %v", err)
	}
	tmp := os.TempDir()
	f, err := os.CreateTemp(tmp, "ferry-visible-")
	if err != nil {
		t.Fatal(err)
	}
	hidden := f.Name()
	_ = f.Close()
	t.Cleanup(func() { _ = os.Remove(hidden) })

	argv := []string{"--mount", "--propagation", "private", "sh", "-c", unsharedScript, "sh", tmp, hidden, binary}
	argv = append(argv, Flags...)
	argv = append(argv, "--remote-debugging-port=0", "--user-data-dir="+filepath.Join(tmp, "ferry-unshared-profile"))
	argv = append(argv, args...)
	argv = append(argv, "about:blank")
	cmd := exec.Command(unshare, argv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the unshared browser: %v", err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})

	lines := make(chan string, 256)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default: // nobody listens any more: keep draining
			}
		}
		exited <- cmd.Wait()
	}()
	var said []string
	bound := time.NewTimer(60 * time.Second) // only catches a hang
	defer bound.Stop()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the unshared browser exited before DevTools listened:\n%s", strings.Join(said, "\n"))
			}
			said = append(said, line)
			if _, ws, found := strings.Cut(line, "DevTools listening on "); found && strings.HasPrefix(ws, "ws://") {
				return Unshared{Endpoint: strings.TrimSpace(ws), Hidden: hidden}
			}
		case <-bound.C:
			t.Fatal(errors.New("the unshared browser did not open DevTools within 60 s"))
		}
	}
}
