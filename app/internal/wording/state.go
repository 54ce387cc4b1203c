package wording

import (
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// ShownState is the state the window shows for a run in state whose job
// ended (ended) with e: a run that stopped after its send because its
// browser or tab went away shows that (browser_disconnected,
// target_not_found, target_crashed) rather than the step it stopped in,
// which it keeps for "Collect the rest". History reads the same rule from
// the run's record (frontend liverun.ts, shownState).
func ShownState(ended bool, state string, e *errs.Envelope) string {
	if !ended || e == nil || !record.State(state).Active() {
		return state
	}
	switch e.Code {
	case errs.BrowserDisconnected, errs.TargetNotFound, errs.TargetCrashed:
		return string(e.Code)
	}
	return state
}
