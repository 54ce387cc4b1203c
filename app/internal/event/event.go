// Package event is the owner's event stream as the desktop reads it: each
// event typed (Event), the types of those the desktop acts on, and a run's
// news as the window's run:event carries it (RunEvent). The app's owner.go
// reads them off the owner's stream.
package event

import (
	"time"

	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// The types of the owner's events the desktop acts on.
const (
	RunUpdate         = "run.update"
	RunPartial        = "run.partial"
	ApprovalRequested = "approval.requested"
)

// Event is one event of the owner's stream, typed: Job is the job's
// view once it ended (run.update), Run the pipeline's event while it goes
// (run.update, run.partial), Approval the job that waits
// (approval.requested).
type Event struct {
	Type     string
	JobID    string
	ClientID string
	Time     time.Time
	Job      *service.Job
	Run      *service.RunEvent
	Approval *service.Approval
}

// RunEvent is one piece of news about a run of the owner (the desktop's
// own runs and agents' alike).
type RunEvent struct {
	// JobID is the run's id (the app's Runs.Get takes it).
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

// RunEventOf reads a run.update or run.partial: the pipeline's event while
// the run goes, the job's view when it ended.
func RunEventOf(ev Event) (RunEvent, bool) {
	out := RunEvent{JobID: ev.JobID, At: ev.Time, RequestedBy: ev.ClientID}
	if j := ev.Job; j != nil {
		out.Kind, out.State = "ended", wording.ShownState(true, j.State, j.Error)
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
