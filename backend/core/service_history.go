package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// ViewSession returns run req.ID (an unambiguous prefix is enough)
// redacted as for export, with its journal. Errors: errs.HubForbidden for
// an agent; errs.SessionNotFound, errs.SessionAmbiguous; store failures.
func (s *Service) ViewSession(ctx context.Context, c service.Caller, req service.SessionRef) (service.SessionDetail, error) {
	if err := admit(c, "view runs", req); err != nil {
		return service.SessionDetail{}, err
	}
	return s.h.ViewSession(ctx, req.ID)
}

// SearchHistory searches the core's shared history (its index is built
// once, so a keystroke costs a search): the hits alone, best first, and
// how many runs matched. Errors: errs.HubForbidden for an agent;
// errs.BadInput for an unknown state or tool or a bad query; store failures.
func (s *Service) SearchHistory(ctx context.Context, c service.Caller, req service.HistoryQuery) (service.HistoryPage, error) {
	if err := admit(c, "search every run", req); err != nil {
		return service.HistoryPage{Hits: []service.Hit{}}, err
	}
	f := job.Filter{Query: req.Query, Site: req.Site, State: job.State(req.State), Tool: req.Tool, From: req.From, To: req.To, Limit: req.Limit}
	for _, st := range req.States {
		f.States = append(f.States, job.State(st))
	}
	hits, total, err := s.c.searchHistoryHits(ctx, f)
	if err != nil {
		return service.HistoryPage{Hits: []service.Hit{}}, err
	}
	if hits == nil {
		hits = []service.Hit{}
	}
	return service.HistoryPage{Hits: hits, Total: total}, nil
}
