package core

import (
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
)

// JobDetail is the Detail of a hub.Job from this backend: the job's record
// and, once its run started, the session (the same record `ferry sessions
// show --json` prints).
type JobDetail struct {
	Session  string       `json:"session,omitempty"`
	Approval job.Approval `json:"approval"`
	Spec     hub.JobSpec  `json:"spec"`
	// Ended says the job will not change any more by itself: its run
	// returned, or it was rejected or cancelled before it ran.
	Ended bool         `json:"ended"`
	Run   *job.Session `json:"run,omitempty"`
	// Receipt is a code job's receipt once its run returned (the record
	// `ferry code --json` prints).
	Receipt *CodeReceipt `json:"receipt,omitempty"`
	// Finding is what a reattach job found about the interrupted run.
	Finding *job.Finding `json:"finding,omitempty"`
	// RunError is the error the job's run itself returned (the Job's Error
	// also shows the session's recorded error when the run returned none).
	RunError *errs.Envelope `json:"runError,omitempty"`
}

// SessionExtra is the Extra of a hub.SessionSummary from this backend: the
// whole record and the search hit that found it, and the total number of
// matches, so that a client prints exactly what the embedded CLI prints.
type SessionExtra struct {
	Listed job.Listed `json:"listed"`
	Total  int        `json:"total"`
}

// SessionDetail is the Detail of a hub.Session from this backend: the record
// and its journal.
type SessionDetail struct {
	Session *job.Session `json:"session"`
	Journal []job.Entry  `json:"journal"`
}
