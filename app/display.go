package app

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// dialer connects to a display server socket; dialDisplay in production, a
// fake in tests.
type dialer func(network, address string) error

func dialDisplay(network, address string) error {
	c, err := net.DialTimeout(network, address, 2*time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

// checkDisplay returns a NoDisplay envelope when a Linux/BSD desktop has no
// display to open the window on. GTK would otherwise abort with a warning
// and no advice (or crash), long after the user typed the command.
// macOS and Windows always have one.
func checkDisplay(getenv func(string) string, dial dialer) error {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return nil
	}
	wayland, x11 := getenv("WAYLAND_DISPLAY"), getenv("DISPLAY")
	if wayland == "" && x11 == "" {
		return errs.New(errs.NoDisplay, "the Ferry window needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set")
	}
	var tried []string
	if wayland != "" {
		reachable, where := waylandReachable(wayland, getenv("XDG_RUNTIME_DIR"), dial)
		if reachable {
			return nil
		}
		tried = append(tried, fmt.Sprintf("WAYLAND_DISPLAY=%s (%s)", wayland, where))
	}
	if x11 != "" {
		reachable, where := x11Reachable(x11, dial)
		if reachable {
			return nil
		}
		tried = append(tried, fmt.Sprintf("DISPLAY=%s (%s)", x11, where))
	}
	return errs.New(errs.NoDisplay, "the Ferry window needs a display, and none answers: %s", strings.Join(tried, "; ")).
		WithEvidence("tried", strings.Join(tried, "; "))
}

func waylandReachable(name, runtimeDir string, dial dialer) (bool, string) {
	path := name
	if !filepath.IsAbs(path) {
		if runtimeDir == "" {
			return false, "XDG_RUNTIME_DIR is not set"
		}
		path = filepath.Join(runtimeDir, name)
	}
	if err := dial("unix", path); err != nil {
		return false, "no compositor at " + path
	}
	return true, path
}

// x11Reachable parses DISPLAY ([host]:number[.screen]) and connects to the
// server's socket: the local Unix socket (or the Linux abstract one X servers
// also listen on) for a local display, TCP port 6000+number for a remote one.
func x11Reachable(display string, dial dialer) (bool, string) {
	host, rest, ok := strings.Cut(display, ":")
	if !ok {
		return false, "not of the form host:number"
	}
	if strings.HasPrefix(rest, ":") { // DECnet "::", not worth supporting
		return false, "DECnet displays are not supported"
	}
	numText, _, _ := strings.Cut(rest, ".")
	num, err := strconv.Atoi(numText)
	if err != nil || num < 0 {
		return false, "display number is not a number"
	}
	if host == "" || host == "unix" || strings.HasPrefix(host, "/") {
		socket := fmt.Sprintf("/tmp/.X11-unix/X%d", num)
		if strings.HasPrefix(host, "/") { // XQuartz-style path displays
			socket = display[:strings.LastIndex(display, ":")]
		}
		if dial("unix", socket) == nil {
			return true, socket
		}
		if runtime.GOOS == "linux" && dial("unix", "@"+socket) == nil {
			return true, "@" + socket
		}
		if _, err := os.Stat(socket); err != nil {
			return false, "no X server socket at " + socket
		}
		return false, "the X server at " + socket + " does not answer"
	}
	addr := net.JoinHostPort(host, strconv.Itoa(6000+num))
	if dial("tcp", addr) == nil {
		return true, addr
	}
	return false, "no X server answers at " + addr
}
