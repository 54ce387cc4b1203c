package record

import "slices"

// State is one step of a run's pipeline (job drives a run through them).
type State string

// The states, in pipeline order, then the terminal failure states.
const (
	StateResolved           State = "resolved"
	StatePreflighted        State = "preflighted"
	StateComposed           State = "composed"
	StateSubmitting         State = "submitting"
	StateSubmitted          State = "submitted"
	StateStreaming          State = "streaming"
	StateCompleted          State = "completed"
	StateExtracted          State = "extracted"
	StateArtifactsRetrieved State = "artifacts_retrieved"
	StateArtifactsVerified  State = "artifacts_verified"
	StateDone               State = "done"
	StateFailed             State = "failed"
	StateCancelled          State = "cancelled"
	StateStale              State = "stale"
)

// States lists every state, pipeline order first.
var States = []State{
	StateResolved, StatePreflighted, StateComposed, StateSubmitting, StateSubmitted, StateStreaming,
	StateCompleted, StateExtracted, StateArtifactsRetrieved, StateArtifactsVerified, StateDone,
	StateFailed, StateCancelled, StateStale,
}

// Valid reports whether s is one of States (a job's own states, such as
// awaiting_approval, are not).
func (s State) Valid() bool { return slices.Contains(States, s) }

// Terminal reports whether no transition leaves s: done, failed, cancelled.
// A stale run is not terminal: the doctor may rebind it and reattach.
func (s State) Terminal() bool {
	return s == StateDone || s == StateFailed || s == StateCancelled
}

// Active reports whether a run in s may still make progress (neither
// terminal nor stale).
func (s State) Active() bool { return s.Valid() && !s.Terminal() && s != StateStale }

// Sent reports whether a run in s has certainly sent its prompt.
func (s State) Sent() bool {
	switch s {
	case StateSubmitted, StateStreaming, StateCompleted, StateExtracted,
		StateArtifactsRetrieved, StateArtifactsVerified, StateDone:
		return true
	}
	return false
}

// Unsent reports whether s precedes submitting: nothing left the browser.
func (s State) Unsent() bool {
	return s == StateResolved || s == StatePreflighted || s == StateComposed
}
