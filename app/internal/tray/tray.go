// Package tray is Ferry's tray icon: Quick prompt…, Show Ferry, the last
// runs and Quit (Start, fyne.io/systray in the desktop and dev binaries),
// and whether the session has a tray that shows it (SystemPlace).
package tray

import (
	"errors"
	"log/slog"

	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// The tray icon: Quick prompt…, Show Ferry, the last runs (a click shows
// Ferry on that run) and Quit. The icon itself (fyne.io/systray, a DBus
// StatusNotifierItem) lives in fyne.go, compiled only into the
// desktop and dev binaries; everything it shows and does is decided here,
// behind Icon, so it is tested without a tray host.

// Recent is how many recent runs the tray lists.
const Recent = 5

// Entry is one recent run as the tray lists it.
type Entry struct {
	ID    string
	Label string
}

// Actions are what the tray's items do.
type Actions struct {
	QuickPrompt func()
	Show        func()
	ShowRun     func(id string)
	Quit        func()
}

// Icon is a running tray icon.
type Icon interface {
	// SetRecent replaces the recent-runs entries (at most Recent).
	SetRecent(runs []Entry)
	// Stop removes the icon; the tray cannot be started again afterwards.
	Stop()
}

// errNoTray: this build has no tray (tests, the bindings generator).
var errNoTray = errors.New("this build has no tray icon")

// Starter starts the tray with icon (PNG) and actions on the session
// bus; fyne.go and stub.go provide Start.
type Starter func(icon []byte, actions Actions, log *slog.Logger) (Icon, error)

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
	return mark + " " + siteName(s.Site) + " · " + wording.OneLine(s.Title(), 40)
}

// Entries turns the newest runs (a listing with its records) into tray
// entries.
func Entries(listed []service.SessionSummary, siteName func(string) string) []Entry {
	out := make([]Entry, 0, min(len(listed), Recent))
	for _, l := range listed {
		if l.Extra == nil || l.Extra.Listed.Session == nil {
			continue
		}
		s := l.Extra.Listed.Session
		out = append(out, Entry{ID: s.ID, Label: trayLabel(s, siteName)})
		if len(out) == Recent {
			break
		}
	}
	return out
}
