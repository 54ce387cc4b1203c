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

// ShowTab shows the tab of run session's conversation in Ferry's browser
// (the one time Ferry raises the browser: the user asked), opening the
// conversation in a new tab when no tab shows it. Errors: session_not_found;
// target_not_found for a run without a conversation whose tab is closed;
// the browser's.
func (r *Runs) ShowTab(session string) (service.TabState, error) {
	var out service.TabState
	err := r.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.ShowRunTab(r.sh.calls, desktopCaller, service.SessionRef{ID: session})
		return err
	})
	return out, err
}
