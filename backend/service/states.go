package service

import "slices"

// The states of a run (a Run's State, a JobEvent's), as the pipeline names
// them; a job reports its run's once the run started.
const (
	RunResolved           = "resolved"
	RunPreflighted        = "preflighted"
	RunComposed           = "composed"
	RunSubmitting         = "submitting"
	RunSubmitted          = "submitted"
	RunStreaming          = "streaming"
	RunCompleted          = "completed"
	RunExtracted          = "extracted"
	RunArtifactsRetrieved = "artifacts_retrieved"
	RunArtifactsVerified  = "artifacts_verified"
	RunDone               = "done"
	RunFailed             = "failed"
	RunCancelled          = "cancelled"
	RunStale              = "stale"
)

// RunStates lists every run state, pipeline order first.
var RunStates = []string{
	RunResolved, RunPreflighted, RunComposed, RunSubmitting, RunSubmitted, RunStreaming,
	RunCompleted, RunExtracted, RunArtifactsRetrieved, RunArtifactsVerified, RunDone,
	RunFailed, RunCancelled, RunStale,
}

// IsRunState reports whether s names a run state (a job's own states,
// such as StateAwaitingApproval, are not).
func IsRunState(s string) bool { return slices.Contains(RunStates, s) }

// IsTerminal reports whether no transition leaves run state s: done,
// failed, cancelled (a stale run may still be reattached).
func IsTerminal(s string) bool { return s == RunDone || s == RunFailed || s == RunCancelled }

// The kinds of a RunEvent.
const (
	RunEventState   = "state"
	RunEventPartial = "partial"
	RunEventFinding = "finding"
)
