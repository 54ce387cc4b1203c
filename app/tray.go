package app

import (
	"errors"
	"log/slog"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// The tray icon: Quick prompt…, Show Ferry, the last runs (a click shows
// Ferry on that run) and Quit. The icon itself (fyne.io/systray, a DBus
// StatusNotifierItem) lives in tray_desktop.go, compiled only into the
// desktop and dev binaries; everything it shows and does is decided here,
// behind trayIcon, so it is tested without a tray host.

// trayRecent is how many recent runs the tray lists.
const trayRecent = 5

// trayRun is one recent run as the tray lists it.
type trayRun struct {
	ID    string
	Label string
}

// trayActions are what the tray's items do.
type trayActions struct {
	QuickPrompt func()
	Show        func()
	ShowRun     func(id string)
	Quit        func()
}

// trayIcon is a running tray icon.
type trayIcon interface {
	// SetRecent replaces the recent-runs entries (at most trayRecent).
	SetRecent(runs []trayRun)
	// Stop removes the icon; the tray cannot be started again afterwards.
	Stop()
}

// errNoTray: this build has no tray (tests, the bindings generator).
var errNoTray = errors.New("this build has no tray icon")

// trayStarter starts the tray with icon (PNG) and actions on the session
// bus; tray_desktop.go and tray_stub.go provide startTray.
type trayStarter func(icon []byte, actions trayActions, log *slog.Logger) (trayIcon, error)

// trayLabel is a run's menu entry: a mark for its outcome, the site's name
// and the start of the run's title.
func trayLabel(s *service.Run, siteName func(string) string) string {
	mark := "…"
	switch s.State {
	case record.StateDone:
		mark = "✓"
	case record.StateFailed, record.StateStale:
		mark = "✗"
	case record.StateCancelled:
		mark = "–"
	}
	// The user's words, not code mode's wrapper around them.
	return mark + " " + siteName(s.Site) + " · " + oneLine(s.Title(), 40)
}

// trayRuns turns the newest runs (a listing with its records) into tray
// entries.
func trayRuns(listed []service.SessionSummary, siteName func(string) string) []trayRun {
	out := make([]trayRun, 0, min(len(listed), trayRecent))
	for _, l := range listed {
		if l.Extra == nil || l.Extra.Listed.Session == nil {
			continue
		}
		s := l.Extra.Listed.Session
		out = append(out, trayRun{ID: s.ID, Label: trayLabel(s, siteName)})
		if len(out) == trayRecent {
			break
		}
	}
	return out
}
