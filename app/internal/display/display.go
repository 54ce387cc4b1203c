// Package display tells, before the window opens, whether a Linux or BSD
// desktop has a display that answers (Wayland's socket, then X11's), so
// that a start without one says so instead of GTK aborting.
package display

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

// Dialer connects to a display server socket; Dial in production, a
// fake in tests.
type Dialer func(network, address string) error

// Dial connects to the display server at address and hangs up; an error
// says that none answered within two seconds.
func Dial(network, address string) error {
	c, err := net.DialTimeout(network, address, 2*time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

// Check returns a NoDisplay envelope when a Linux/BSD desktop has no
// display to open the window on. GTK would otherwise abort with a warning
// and no advice (or crash), long after the user typed the command.
// macOS and Windows always have one.
func Check(getenv func(string) string, dial Dialer) error {
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

func waylandReachable(name, runtimeDir string, dial Dialer) (bool, string) {
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
func x11Reachable(display string, dial Dialer) (bool, string) {
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
