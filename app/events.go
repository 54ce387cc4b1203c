package app

import (
	"time"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/backend/record"
)

// Events about the owner that the window subscribes to
// (frontend/src/lib/api).
const (
	// EventBrowser carries the service.BrowserState after the browser
	// connected, disconnected or was replaced.
	EventBrowser = "browser:changed"
	// EventHub carries the gateway's approval and client events to the
	// window: approval.requested is the user's cue to approve or reject an
	// agent's job.
	EventHub = "hub:event"
	// EventRun carries a RunEvent: a run's new state, its answer so far,
	// or its end (then the UI asks Runs.Get for the whole record).
	EventRun = "run:event"
	// EventTabs says the owner's tabs changed (one opened, closed,
	// navigated, or what Ferry learned of one changed): the window lists
	// them again. It carries nothing and comes once things settle.
	EventTabs = "tabs:changed"
)

// RunEvent is one piece of news about a run of the owner (the desktop's
// own runs and agents' alike).
type RunEvent struct {
	// JobID is the run's id (Runs.Get takes it).
	JobID string `json:"jobId"`
	// Kind is "state" (the run entered State), "partial" (Text is the
	// answer so far) or "ended" (the run will not change by itself any
	// more; State is its final state).
	Kind    string    `json:"kind"`
	Session string    `json:"session,omitempty"`
	State   string    `json:"state,omitempty"`
	Note    string    `json:"note,omitempty"`
	Text    string    `json:"text,omitempty"`
	At      time.Time `json:"at"`
	// RequestedBy is who asked for the run ("desktop" for this app).
	RequestedBy string `json:"requestedBy,omitempty"`
}

// runEventOf reads a run.update or run.partial: the pipeline's event while
// the run goes, the job's view when it ended.
func runEventOf(ev event.Event) (RunEvent, bool) {
	out := RunEvent{JobID: ev.JobID, At: ev.Time, RequestedBy: ev.ClientID}
	if j := ev.Job; j != nil {
		out.Kind, out.State = "ended", shownState(true, j.State, j.Error)
		if out.At.IsZero() {
			out.At = j.UpdatedAt
		}
		return out, true
	}
	re := ev.Run
	if re == nil {
		return RunEvent{}, false
	}
	out.Session, out.State, out.Note = re.Session, string(re.State), re.Note
	switch {
	case re.Kind == record.EventPartial && re.Partial != nil:
		out.Kind, out.Text = "partial", re.Partial.Text
	case re.Kind == record.EventState:
		out.Kind = "state"
	default:
		return RunEvent{}, false
	}
	return out, true
}
