package job

import (
	"fmt"
	"slices"

	"github.com/ferrydesk/ferry/backend/record"
)

// State is one step of the pipeline (the record's).
type State = record.State

// The states, in pipeline order, then the terminal failure states.
const (
	StateResolved           = record.StateResolved
	StatePreflighted        = record.StatePreflighted
	StateComposed           = record.StateComposed
	StateSubmitting         = record.StateSubmitting
	StateSubmitted          = record.StateSubmitted
	StateStreaming          = record.StateStreaming
	StateCompleted          = record.StateCompleted
	StateExtracted          = record.StateExtracted
	StateArtifactsRetrieved = record.StateArtifactsRetrieved
	StateArtifactsVerified  = record.StateArtifactsVerified
	StateDone               = record.StateDone
	StateFailed             = record.StateFailed
	StateCancelled          = record.StateCancelled
	StateStale              = record.StateStale
)

// States lists every state, pipeline order first.
var States = record.States

// forward holds the legal forward moves of the pipeline. Redoing the steps
// before submitting after a crash moves back to resolved (see CanTransition).
var forward = map[State][]State{
	StateResolved:           {StatePreflighted},
	StatePreflighted:        {StateComposed},
	StateComposed:           {StateSubmitting},
	StateSubmitting:         {StateSubmitted},
	StateSubmitted:          {StateStreaming, StateCompleted},
	StateStreaming:          {StateCompleted},
	StateCompleted:          {StateExtracted},
	StateExtracted:          {StateArtifactsRetrieved, StateDone},
	StateArtifactsRetrieved: {StateArtifactsVerified},
	StateArtifactsVerified:  {StateDone},
}

// CanTransition reports whether a run may move from one state to another:
// the pipeline's forward moves; from any non-terminal state to failed or
// cancelled; from any active state to stale; from stale back to an active
// state (the doctor rebinds the tab and restores the state the journal names
// before stale); from cancelled back to submitted or streaming, for a
// reattach that collects the rest of a cancelled answer; from the states
// before submitting, or from submitting once the user turn is proved
// absent, back to resolved, for a reattach that redoes them; and from submitted or streaming back to submitting, for an
// interstitial policy's one retry. Staying in the same state is not a transition
// and is refused.
func CanTransition(from, to State) bool {
	if !from.Valid() || !to.Valid() || from == to {
		return false
	}
	if from == StateCancelled && (to == StateSubmitted || to == StateStreaming) {
		// A reattach collecting the rest of an answer the user cancelled
		// while it streamed (Session.Collectable).
		return true
	}
	if from.Terminal() {
		return false
	}
	switch to {
	case StateFailed, StateCancelled:
		return true
	case StateStale:
		return from.Active()
	}
	if from == StateStale {
		// A rebound tab resumes the run; the journal says where.
		return to.Active()
	}
	if to == StateSubmitting && (from == StateSubmitted || from == StateStreaming) {
		// An interstitial policy's one intentional second submission (the
		// rate-limit retry, the new-chat resubmit), journaled with a new
		// fingerprint whose RetryOf names the first.
		return true
	}
	if to == StateResolved && (from.Unsent() || from == StateSubmitting) {
		// Redo from the start: before submitting nothing was sent; from
		// submitting only after the conversation was searched and the user
		// turn proved absent (Reattach journals that finding).
		return true
	}
	return slices.Contains(forward[from], to)
}

// checkTransition is CanTransition as an error naming both states.
func checkTransition(from, to State) error {
	if CanTransition(from, to) {
		return nil
	}
	return fmt.Errorf("move session from %s to %s: %w", from, to, ErrIllegalTransition)
}
