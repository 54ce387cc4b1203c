package job

import (
	"context"
	"fmt"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// resumeDelivery is Reattach's part for a run whose answer was extracted
// (extracted, artifacts_retrieved, artifacts_verified): nothing is sent or
// collected again. With a Deliverable (WithDeliverable) the run's
// deliverable is judged and, for a code-mode run, its artifacts are brought
// home from the recorded conversation (the Deliverable skips zips it already
// saved and verified), then the run goes on to done. Without one an
// extracted or verified run is finished as before; a code-mode run stopped
// at artifacts_retrieved cannot be verified: errs.CapabilityMissing.
func (r *Runner) resumeDelivery(ctx context.Context, s *Session, a provider.Adapter, f *Finding) (*Session, error) {
	if r.deliver == nil {
		if s.CodeMode && s.State == StateArtifactsRetrieved {
			return s, errs.New(errs.CapabilityMissing, "session %s stopped between fetching and verifying its artifacts, and this reattach cannot verify artifacts", s.ID).
				WithEvidence("session", s.ID).WithHint("reattach it with the code-mode commands (`ferry reattach --session %s`)", s.ID)
		}
		f.Action, f.Detail = "finish", "the answer was already extracted: finishing the run"
		r.finding(s.ID, f)
		return r.finish(ctx, s, a)
	}
	f.Action = "finish"
	switch {
	case s.CodeMode && s.State == StateExtracted:
		f.Detail = "the answer was already extracted: bringing its artifacts home from the conversation, without sending anything"
	case s.CodeMode:
		f.Detail = fmt.Sprintf("stopped at %s: checking the artifacts already saved and fetching only what is missing", s.State)
	default:
		f.Detail = "the answer was already extracted: checking its deliverable and finishing the run"
	}
	r.finding(s.ID, f)
	if s.TargetID != "" && a.TargetID() != s.TargetID {
		return s, errs.New(errs.Internal, "the adapter controls tab %s, not the session's tab %s", a.TargetID(), s.TargetID).
			WithEvidence("requested_tab_id", s.TargetID).WithEvidence("controlled_tab_id", a.TargetID())
	}
	// The run's own deadline bounded the answer; bringing home what it
	// already delivered is bounded by the caller's ctx alone.
	return r.deliverAndFinish(ctx, s, a)
}
