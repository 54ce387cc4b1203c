package jobs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Holdings is what the jobs of one client made: its runs, the tabs they
// opened (newest first) and their conversations.
type Holdings struct {
	Runs  map[string]bool
	Tabs  []string
	Convs map[string]bool
}

// Holdings reads from the store what the jobs of client made. Errors:
// errs.StoreCorrupt; store failures.
func (h *Runner) Holdings(ctx context.Context, client string) (Holdings, error) {
	hd := Holdings{Runs: map[string]bool{}, Convs: map[string]bool{}}
	recs, err := h.jobs.ByRequester(client)
	if err != nil {
		return Holdings{}, err
	}
	repo, err := h.d.History(ctx)
	if err != nil {
		return Holdings{}, err
	}
	for i := len(recs) - 1; i >= 0; i-- {
		jr := recs[i]
		if jr.Session == "" {
			continue
		}
		hd.Runs[jr.Session] = true
		run, err := repo.Get(ctx, jr.Session)
		if errs.Has(err, errs.SessionNotFound) {
			continue
		}
		if err != nil {
			return Holdings{}, err
		}
		if run.Routing != nil && run.Routing.TabWasCreated && run.Routing.ControlledTabID != "" {
			hd.Tabs = append(hd.Tabs, run.Routing.ControlledTabID)
		}
		if run.ConversationID != "" {
			hd.Convs[run.ConversationID] = true
		}
	}
	return hd, nil
}
