package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
)

// Probe holds what the checks read from the machine, so tests can replace
// any of it. Zero fields take the real machine's values (see Real).
type Probe struct {
	Getenv        func(string) string
	GOOS          string
	FindBrowser   func() (string, error)
	BrowserVer    func(ctx context.Context, path string) (string, error)
	WebKitLibs    []string // glob patterns of the WebKitGTK library
	BrowserBinary string   // from settings; "" = discover
	// FindOwner finds the running owner of a data directory from its hub
	// file (hub/client.FindOwner): where it answers and its side of the
	// version handshake; an error when none answers. Nil: no owner is
	// looked for.
	FindOwner OwnerFinder
}

// OwnerFinder finds the running owner whose hub file is at hubFile.
type OwnerFinder func(ctx context.Context, hubFile string) (where string, owner service.Peer, err error)

// Browser checks that Chromium or Chrome is installed and runs.
func Browser(ctx context.Context, p Probe) Check {
	c := Check{ID: "browser", Title: "Chromium or Chrome", Required: true}
	path := p.BrowserBinary
	if path == "" {
		var err error
		path, err = p.FindBrowser()
		if err != nil {
			c.Status, c.Detail = Fail, "no Chromium or Chrome found"
			c.Fix = platform.BrowserSetting(p.GOOS)
			if e := errs.From(err); e.Code == errs.BrowserNotFound {
				c.Detail = e.Message
			}
			return c
		}
	}
	ver, err := p.BrowserVer(ctx, path)
	if err != nil {
		c.Status, c.Detail = Fail, fmt.Sprintf("%s does not run: %v", path, err)
		c.Fix = "reinstall the browser, or point browser.binary in settings at one that runs"
		return c
	}
	c.Status, c.Detail = OK, fmt.Sprintf("%s at %s", ver, path)
	return c
}

// Display checks for an X11 or Wayland display, which only the desktop app
// needs: the CLI drives a headless browser without one.
func Display(p Probe) Check {
	c := Check{ID: "display", Title: "Display for the desktop app"}
	if p.GOOS != "linux" {
		c.Status, c.Detail = OK, "native windowing on "+p.GOOS
		return c
	}
	if d := p.Getenv("WAYLAND_DISPLAY"); d != "" {
		c.Status, c.Detail = OK, "Wayland display "+d
		return c
	}
	if d := p.Getenv("DISPLAY"); d != "" {
		c.Status, c.Detail = OK, "X11 display "+d
		return c
	}
	c.Status, c.Detail = Warn, "no DISPLAY or WAYLAND_DISPLAY: the desktop app cannot open a window (the CLI works)"
	c.Fix = "run the app under a display, e.g. `xvfb-run -a make run`, or use the `ferry` CLI"
	return c
}

// WebKit checks for the WebKitGTK 4.1 library the desktop window is built on.
func WebKit(p Probe) Check {
	c := Check{ID: "webkit", Title: "WebKitGTK 4.1 for the desktop app"}
	if p.GOOS != "linux" {
		c.Status, c.Detail = OK, "not needed on "+p.GOOS
		return c
	}
	for _, pat := range p.WebKitLibs {
		if m, _ := filepath.Glob(pat); len(m) > 0 {
			c.Status, c.Detail = OK, "found "+m[0]
			return c
		}
	}
	c.Status, c.Detail = Warn, "libwebkit2gtk-4.1 not found: the desktop app will not start (the CLI works)"
	c.Fix = "apt-get install libwebkit2gtk-4.1-0 (or run `make run`, which installs what the app needs)"
	return c
}

// DataDir checks that the data directory exists or can be made, and takes
// a write.
func DataDir(paths config.Paths) Check {
	c := Check{ID: "datadir", Title: "Data directory", Required: true}
	if err := paths.EnsureDataDir(); err != nil {
		e := errs.From(err)
		c.Status, c.Detail, c.Fix = Fail, e.Message, e.RetryHint
		return c
	}
	c.Status, c.Detail = OK, "writable: "+paths.DataDir
	// The directory holds the history (prompts and answers), the browser
	// profile with the sites' cookies and the gateway's token file: other
	// users of the machine must not read it.
	if err := config.CheckPrivate(paths.DataDir); errors.Is(err, config.ErrNotPrivate) {
		c.Status = Warn
		c.Detail = fmt.Sprintf("writable, but other users can access %s (%v): it holds your history, the browser profile's cookies and the gateway token", paths.DataDir, err)
		c.Fix = platform.PrivateDir(runtime.GOOS, paths.DataDir)
	}
	return c
}

// Settings checks that the settings file parses and validates.
func Settings(paths config.Paths) Check {
	c := Check{ID: "settings", Title: "Settings file", Required: true}
	if _, err := config.Load(paths.SettingsFile()); err != nil {
		e := errs.From(err)
		c.Status, c.Detail, c.Fix = Fail, e.Message, e.RetryHint
		return c
	}
	if _, err := os.Stat(paths.SettingsFile()); errors.Is(err, os.ErrNotExist) {
		c.Status, c.Detail = OK, "no settings file yet (defaults in use): "+paths.SettingsFile()
		return c
	}
	c.Status, c.Detail = OK, "valid: "+paths.SettingsFile()
	return c
}

// Store checks that the history store opens, which verifies the checksum of
// every block of its tables (store.Verify), and names a damaged file with
// the backup that `ferry sessions restore` would bring back. A store held by another
// process fails with the holder named: the CLI cannot run embedded while
// another process owns the data directory.
func Store(ctx context.Context, paths config.Paths, findOwner OwnerFinder) Check {
	c := Check{ID: "store", Title: "History store", Required: true}
	if _, err := os.Stat(paths.DataDir); err != nil {
		c.Status, c.Detail, c.Fix = Fail, "data directory missing: "+paths.DataDir, "see the datadir check"
		return c
	}
	s, err := store.Open(ctx, paths.StoreDir(), store.WithRole("ferry doctor"))
	if err != nil {
		e := errs.From(err)
		if e.Code == errs.StoreBusy && findOwner != nil {
			// A running owner (the desktop app or `ferry serve`) holding the
			// store is the normal case: the CLI goes through its hub.
			dctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			where, owner, derr := findOwner(dctx, paths.HubFile())
			cancel()
			if derr == nil && owner.Wire != service.WireRevision {
				// The owner answers, but on another wire revision: every
				// command through it would fail with version_mismatch.
				e := service.VersionMismatch(owner, service.This())
				c.Status, c.Detail, c.Fix = Fail, fmt.Sprintf("owned by a running Ferry (%s) that cannot serve this CLI: %s", where, e.Message), e.RetryHint
				return c
			}
			if derr == nil {
				c.Status, c.Detail = OK, fmt.Sprintf("owned by a running Ferry (%s): CLI commands go through it; %s", where, backupsText(paths))
				return c
			}
		}
		c.Status, c.Detail, c.Fix = Fail, e.Message, e.RetryHint
		if e.Code == errs.StoreCorrupt {
			c.Fix = restoreFix(paths)
		}
		return c
	}
	v, verified := s.SchemaVersion(), s.Verified()
	if err := s.Close(); err != nil {
		c.Status, c.Detail = Fail, fmt.Sprintf("close store: %v", err)
		return c
	}
	c.Status, c.Detail = OK, fmt.Sprintf("opens (schema %d), every block of its %d table(s) (%d KB) passed its checksum; %s: %s",
		v, verified.Tables, (verified.Bytes+1023)>>10, backupsText(paths), paths.StoreDir())
	return c
}

// backupsText says how old the newest backup of the history is.
func backupsText(paths config.Paths) string {
	have, err := store.Backups(paths.BackupsDir())
	switch {
	case err != nil:
		return "backups unreadable: " + errs.From(err).Message
	case len(have) == 0:
		return "no backup yet (the app and ferry serve write one when they close)"
	}
	return fmt.Sprintf("newest backup %s old (%d kept)", ageText(time.Since(have[0].Taken)), len(have))
}

// restoreFix is the fix for a damaged store: the restore command with the
// backup it would use.
func restoreFix(paths config.Paths) string {
	have, err := store.Backups(paths.BackupsDir())
	if err != nil || len(have) == 0 {
		return fmt.Sprintf("no backup in %s: move %s aside (it holds what is left of the history) and run again", paths.BackupsDir(), paths.StoreDir())
	}
	return fmt.Sprintf("run `ferry sessions restore` to restore the newest backup (%s, %s old); the damaged store is kept aside", filepath.Base(have[0].Path), ageText(time.Since(have[0].Taken)))
}

// ageText shows an age in the largest whole unit: "under a minute",
// "12 min", "5 h", "3 days".
func ageText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "under a minute"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}

// Run runs every check in order.
func Run(ctx context.Context, paths config.Paths, p Probe, version string) Report {
	return NewReport(version, []Check{
		Browser(ctx, p),
		Display(p),
		WebKit(p),
		DataDir(paths),
		Settings(paths),
		Store(ctx, paths, p.FindOwner),
	})
}

// DefaultWebKitLibs are where Debian, Ubuntu and Fedora keep the library.
var DefaultWebKitLibs = []string{
	"/usr/lib/*/libwebkit2gtk-4.1.so*",
	"/usr/lib/libwebkit2gtk-4.1.so*",
	"/usr/lib64/libwebkit2gtk-4.1.so*",
}

// ThisMachine returns a Probe reading the real environment; the browser
// functions are supplied by the caller (the core passes backend/browser/launch's).
func ThisMachine(find func() (string, error), ver func(context.Context, string) (string, error), binary string) Probe {
	return Probe{Getenv: os.Getenv, GOOS: runtime.GOOS, FindBrowser: find, BrowserVer: ver, WebKitLibs: DefaultWebKitLibs, BrowserBinary: binary}
}
