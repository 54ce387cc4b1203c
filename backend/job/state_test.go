package job

import (
	"errors"
	"fmt"
	"testing"
)

// legal is the expected transition table, written out independently of
// the implementation's.
func legal(from, to State) bool {
	if from == StateCancelled && (to == StateSubmitted || to == StateStreaming) {
		return true
	}
	if from == to || from.Terminal() {
		return false
	}
	if to == StateFailed || to == StateCancelled {
		return true
	}
	if to == StateStale {
		return from != StateStale
	}
	if from == StateStale {
		return !to.Terminal() && to != StateStale
	}
	pairs := map[[2]State]bool{
		{StateResolved, StatePreflighted}: true, {StatePreflighted, StateComposed}: true,
		{StateComposed, StateSubmitting}: true, {StateSubmitting, StateSubmitted}: true,
		{StateSubmitted, StateStreaming}: true, {StateSubmitted, StateCompleted}: true,
		{StateStreaming, StateCompleted}: true, {StateCompleted, StateExtracted}: true,
		{StateExtracted, StateArtifactsRetrieved}: true, {StateExtracted, StateDone}: true,
		{StateArtifactsRetrieved, StateArtifactsVerified}: true, {StateArtifactsVerified, StateDone}: true,
		{StatePreflighted, StateResolved}: true, {StateComposed, StateResolved}: true,
		{StateSubmitting, StateResolved}:  true,
		{StateSubmitted, StateSubmitting}: true, {StateStreaming, StateSubmitting}: true,
	}
	return pairs[[2]State{from, to}]
}

func TestEveryTransitionIsLegalOrRefusedAsTheTableSays(t *testing.T) {
	allowed := 0
	for _, from := range States {
		for _, to := range States {
			want := legal(from, to)
			if want {
				allowed++
			}
			t.Run(fmt.Sprintf("%s to %s is allowed=%t", from, to, want), func(t *testing.T) {
				if got := CanTransition(from, to); got != want {
					t.Fatalf("CanTransition(%s, %s) = %t, want %t", from, to, got, want)
				}
				err := checkTransition(from, to)
				if want != (err == nil) {
					t.Fatalf("checkTransition(%s, %s) = %v", from, to, err)
				}
				if err != nil && !errors.Is(err, ErrIllegalTransition) {
					t.Fatalf("error %v is not ErrIllegalTransition", err)
				}
			})
		}
	}
	if allowed < 40 {
		t.Fatalf("only %d legal moves: the table lost rows", allowed)
	}
}

func TestUnknownStatesNeverTransition(t *testing.T) {
	for _, s := range []State{"", "bogus", "DONE"} {
		t.Run(fmt.Sprintf("state %q is refused both ways", s), func(t *testing.T) {
			if CanTransition(s, StateFailed) || CanTransition(StateResolved, s) {
				t.Fatal("an unknown state was allowed to move")
			}
		})
	}
}
