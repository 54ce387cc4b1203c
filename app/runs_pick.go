package app

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// RetryOnTab sends run id's request again as a new run pinned to tab
// tabID: the answer to a run that stopped because several tabs of its site
// were open (tab_ambiguous), once the user picked one of them. The new run
// keeps the request's site, model, prompt and code-mode options; a
// follow-up's conversation is the tab's (the tabs offered show it).
// Errors: bad_input for an empty tab id; hub_not_found; as Start.
func (r *Runs) RetryOnTab(id, tabID string) (RunInfo, error) {
	if tabID == "" {
		return RunInfo{}, errs.New(errs.BadInput, "no tab picked").WithHint("pick one of the tabs listed")
	}
	return r.jobCall(func(ctx context.Context, svc service.Service) (service.Job, error) {
		j, err := svc.GetJob(ctx, desktopCaller, service.JobRef{ID: id})
		if err != nil {
			return service.Job{}, err
		}
		if j.Detail == nil {
			return service.Job{}, errs.New(errs.StoreCorrupt, "read run %s: it carries no record", id)
		}
		req := j.Detail.Spec
		req.TabID, req.NewChat, req.SessionID, req.Conversation = tabID, false, "", ""
		return svc.SubmitJob(ctx, desktopCaller, req)
	})
}
