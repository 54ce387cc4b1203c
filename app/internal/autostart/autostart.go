// Package autostart starts Ferry at login with its window hidden: an XDG
// autostart entry on Linux, a value in the user's Run key on Windows
// (System), and reads back whether it does. StartsHidden reads the flag
// such a start passes.
package autostart

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Start at login: an XDG autostart entry (the freedesktop "Desktop Application
// Autostart" specification) that starts ferry-desktop with --hidden, so the
// window stays hidden until the tray or the hotkey asks for it. The entry's
// presence is the setting: there is no second copy of it to drift.

// LoginStart is Ferry's start at login, kept where the platform keeps it
// (an XDG autostart entry on Linux, the user's Run key on Windows): its
// presence is the setting, read back each time.
type LoginStart interface {
	// Enabled reports whether Ferry starts at login.
	Enabled() (bool, error)
	// Set makes exe start at login with its window hidden (on) or removes
	// the entry (off).
	Set(exe string, on bool) error
}

// xdgAutostart is LoginStart through the XDG autostart entry.
type xdgAutostart struct{ getenv func(string) string }

func (x xdgAutostart) Enabled() (bool, error)        { return autostartState(x.getenv) }
func (x xdgAutostart) Set(exe string, on bool) error { return setAutostart(x.getenv, exe, on) }

var _ LoginStart = xdgAutostart{}

// autostartName is the entry's file name: the desktop entry's id.
const autostartName = "io.github.ferrydesk.Ferry.desktop"

// hiddenFlag starts the window hidden (the tray and the hotkey show it).
const hiddenFlag = "--hidden"

// autostartFile is where the entry lives: $XDG_CONFIG_HOME/autostart, else
// ~/.config/autostart. Errors: errs.ConfigInvalid when neither is known.
func autostartFile(getenv func(string) string) (string, error) {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home := getenv("HOME")
		if home == "" {
			return "", errs.New(errs.ConfigInvalid, "neither XDG_CONFIG_HOME nor HOME is set: no place for the autostart entry").
				WithHint("set HOME, then turn the setting on again")
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "autostart", autostartName), nil
}

// autostartEntry is the entry that starts exe hidden at login.
func autostartEntry(exe string) string {
	return strings.Join([]string{
		"[Desktop Entry]",
		"Type=Application",
		"Name=Ferry",
		"Comment=Ferry in the tray: your AI chat sites, ready for a quick prompt",
		"Exec=" + desktopExecQuote(exe) + " " + hiddenFlag,
		"Icon=io.github.ferrydesk.Ferry",
		"Terminal=false",
		"X-GNOME-Autostart-enabled=true",
		"",
	}, "\n")
}

// desktopExecQuote quotes a path for an Exec key when it needs it.
func desktopExecQuote(p string) string {
	if !strings.ContainsAny(p, " \t\n\"'\\><~|&;$*?#()`") {
		return p
	}
	r := strings.NewReplacer(`\`, `\\\\`, `"`, `\\"`, "`", "\\\\`", "$", `\\$`)
	return `"` + r.Replace(p) + `"`
}

// autostartState reports whether the entry is there.
func autostartState(getenv func(string) string) (bool, error) {
	f, err := autostartFile(getenv)
	if err != nil {
		return false, err
	}
	_, err = os.Stat(f)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the autostart entry: %w", err)
	}
	return true, nil
}

// setAutostart writes (on) or removes (off) the entry that starts exe at
// login, atomically. Errors: errs.ConfigInvalid with no place for it; the
// file system's.
func setAutostart(getenv func(string) string, exe string, on bool) error {
	f, err := autostartFile(getenv)
	if err != nil {
		return err
	}
	if !on {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove the autostart entry: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
		return fmt.Errorf("create the autostart directory: %w", err)
	}
	tmp := f + ".part"
	if err := os.WriteFile(tmp, []byte(autostartEntry(exe)), 0o600); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the autostart entry: %w", err)
	}
	if err := os.Rename(tmp, f); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("place the autostart entry: %w", err)
	}
	return nil
}

// StartsHidden reports whether args (after the program name) ask for the
// window to start hidden.
func StartsHidden(args []string) bool {
	for _, a := range args {
		if a == hiddenFlag {
			return true
		}
	}
	return false
}
