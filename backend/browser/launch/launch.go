// Package launch finds a Chromium-based browser on this machine and starts
// it for Ferry: on Ferry's persistent profile (refused while another live
// browser holds it), with DevTools on a random loopback port, in a process
// tree of its own that is ended as one. It never downloads a browser.
// browser.Launch starts one here and connects to it; `ferry doctor` asks
// FindBinary and BinaryVersion.
package launch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	settings "github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

var errBrowserWontExit = errors.New("the browser did not exit after SIGKILL")

// baseFlags are always passed. The background flags matter because Ferry
// drives tabs that are not in front: throttled timers would slow the sites'
// own scripts (a send button that hydrates late, a stream that stalls).
var baseFlags = []string{
	"--remote-debugging-port=0",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-quic",
	"--disable-background-timer-throttling",
	"--disable-backgrounding-occluded-windows",
	"--disable-renderer-backgrounding",
}

// Start starts Chromium on the persistent profile in profileDir (created
// with mode 0700 if missing) and returns the running browser once it offers
// its DevTools endpoint. The browser is headful unless Headless is given;
// DevTools listens on a random loopback port and never accepts other web
// origins. browser.Launch connects to it; Stop or Kill ends it.
//
// Errors: BadInput for an empty profileDir or a refused argument;
// BrowserNotFound when no executable is found (see FindBinary);
// BrowserLaunchFailed when the profile is in use by another browser process,
// when there is no display for a headful window, or when the browser exits or
// stays silent before offering its DevTools endpoint.
func Start(ctx context.Context, profileDir string, opts ...Option) (*Process, error) {
	cfg := newConfig(opts)
	if strings.TrimSpace(profileDir) == "" {
		return nil, errs.New(errs.BadInput, "launch the browser: no profile directory given").
			WithHint("pass the directory of Ferry's browser profile (normally <data dir>/browser-profile)")
	}
	for _, a := range cfg.args {
		// A flag that opens DevTools beyond loopback or to other origins,
		// points at another profile or weakens the sandbox is refused,
		// however it is spelt (config.RefusedBrowserArg).
		if r, refused := settings.RefusedBrowserArg(a); refused {
			return nil, errs.New(errs.BadInput, "the browser argument %q is not allowed", a).
				WithHint("Ferry sets DevTools and the profile itself and keeps the sandbox; remove %s from --browser-arg", r)
		}
	}
	dir, err := filepath.Abs(profileDir)
	if err != nil {
		return nil, errs.Wrap(err, errs.BadInput, "resolve the profile directory %q: %v", profileDir, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errs.Wrap(err, errs.DataDirUnwritable, "create the browser profile directory: %v", err).WithEvidence("dir", dir)
	}
	bin := cfg.binary
	if bin == "" {
		if bin, err = FindBinary(); err != nil {
			return nil, err
		}
	} else if err := checkBinary(bin); err != nil {
		return nil, err
	}
	if err := checkProfileFree(dir); err != nil {
		return nil, err
	}
	if !cfg.headless && runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, errs.New(errs.BrowserLaunchFailed, "cannot open a browser window: no display (DISPLAY and WAYLAND_DISPLAY are unset)").
			WithHint("run under a desktop session or xvfb-run, pass --headless, or attach to a running browser with --browser-url")
	}

	args := append([]string{"--user-data-dir=" + dir}, baseFlags...)
	if cfg.headless {
		args = append(args, "--headless", "--disable-gpu")
	}
	if isRoot() {
		args = append(args, "--no-sandbox")
	}
	args = append(args, cfg.args...)
	args = append(args, "about:blank")

	proc, err := startProcess(bin, args)
	if err != nil {
		return nil, errs.Wrap(err, errs.BrowserLaunchFailed, "start %s: %v", bin, err).WithEvidence("binary", bin)
	}
	fail := func(format string, a ...any) error {
		proc.Kill()
		e := errs.New(errs.BrowserLaunchFailed, format, a...).WithEvidence("binary", bin).WithEvidence("profile", dir)
		if t := proc.stderrTail(); t != "" {
			e = e.WithEvidence("stderr", t)
		}
		return e
	}

	wait := time.NewTimer(cfg.launchTimeout)
	defer wait.Stop()
	var wsURL string
	select {
	case wsURL = <-proc.wsURL:
	case <-proc.exited:
		if err := checkProfileFree(dir); err != nil {
			return nil, err
		}
		return nil, fail("the browser exited (%s) before offering its DevTools endpoint", proc.exitStatus())
	case <-wait.C:
		return nil, fail("the browser offered no DevTools endpoint within %s", cfg.launchTimeout)
	case <-ctx.Done():
		return nil, fail("launch interrupted: %v", ctx.Err())
	}
	proc.endpoint = wsURL
	return proc, nil
}
