package app

import (
	"context"

	"github.com/ferrydesk/ferry/backend/service"
)

// RetryOutcome is what History's Retry did: the new run (whose progress
// comes as EventRun events), or, when nothing was sent because the site may
// already hold the prompt, why (and whether CollectRun can get the answer
// instead).
type RetryOutcome struct {
	Run  *RunInfo           `json:"run,omitempty"`
	Held *service.RetryHold `json:"held,omitempty"`
}

// RetryRun sends the request of History's run session again as a new run:
// at once when the run stopped before its send; when its prompt may already
// be at the site, only with sendAgain (the user's explicit choice).
// Errors: session_not_found; bad_input for a run going on now or naming
// the attached files that are gone; as Start.
func (r *Runs) RetryRun(session string, sendAgain bool) (RetryOutcome, error) {
	var out RetryOutcome
	err := r.sh.withService(func(svc service.Service) error {
		ctx := context.Background()
		res, err := svc.RetryRun(ctx, desktopCaller, service.RetryRunRequest{Session: session, SendAgain: sendAgain})
		if err != nil || res.Job == nil {
			out.Held = res.Held
			return err
		}
		info, err := r.info(ctx, svc, *res.Job)
		out.Run = &info
		return err
	})
	return out, err
}

// CollectRun collects the answer of History's run session without sending
// its prompt again (the run's reattach), as a new run. Errors:
// session_not_found; as Collect.
func (r *Runs) CollectRun(session string) (RunInfo, error) {
	return r.jobCall(func(ctx context.Context, svc service.Service) (service.Job, error) {
		res, err := svc.ReattachSession(ctx, desktopCaller, service.ReattachRequest{Session: session})
		return res.Job, err
	})
}
