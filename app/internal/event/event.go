// Package event is the owner's event stream as the desktop reads it: each
// event typed (Event), and the types of those the desktop acts on. The
// app's owner.go reads them off the owner's stream.
package event

import (
	"time"

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
