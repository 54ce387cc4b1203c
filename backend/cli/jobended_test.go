package cli

import (
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
)

// jobEnded reports whether a job will not change any more by itself: its
// run ended (done, failed, cancelled), it went stale, or the owner's run of
// it returned (a run stopped after the send stays collectable by reattach).
func jobEnded(j hub.Job) bool {
	switch st := job.State(j.State); {
	case st.Terminal(), st == job.StateStale:
		return true
	case j.State == hub.StateAwaitingApproval:
		return false
	}
	return j.Ended()
}
