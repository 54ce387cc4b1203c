package client

import (
	"context"
	"net/http"

	"github.com/ferrydesk/ferry/backend/service"
)

// ListSites lists the owner's site registry. Errors: the
// owner's envelopes.
func (s *Service) ListSites(ctx context.Context, c service.Caller, req service.ListSitesRequest) ([]service.SiteInfo, error) {
	ctx = actingAs(ctx, c)
	var out []service.SiteInfo
	return out, s.c.do(ctx, http.MethodGet, "/v1/sites", nil, &out)
}

// TabStates lists the tabs of the owner's browser with what a run would
// meet in each (an agent sees less: see service.Service). Errors: the
// owner's envelopes.
func (s *Service) TabStates(ctx context.Context, c service.Caller, req service.TabStatesRequest) ([]service.TabState, error) {
	ctx = actingAs(ctx, c)
	var out []service.TabState
	return out, s.c.do(ctx, http.MethodGet, "/v1/tabs/states", nil, &out)
}

// DoctorSites checks the sites live in the owner's browser (owner only).
// Errors: the owner's envelopes.
func (s *Service) DoctorSites(ctx context.Context, c service.Caller, req service.SitesDoctorRequest) (service.SitesReport, error) {
	if err := req.Validate(); err != nil {
		return service.SitesReport{}, err
	}
	ctx = actingAs(ctx, c)
	var out service.SitesReport
	return out, s.c.do(ctx, http.MethodPost, "/v1/sites/doctor", req, &out)
}

// TabAction shows, closes or logs in on one of the owner's tabs (owner
// only). Errors: errs.BadInput from req.Validate; the owner's envelopes.
func (s *Service) TabAction(ctx context.Context, c service.Caller, req service.TabActionRequest) (service.TabActionResult, error) {
	if err := req.Validate(); err != nil {
		return service.TabActionResult{}, err
	}
	ctx = actingAs(ctx, c)
	var out service.TabActionResult
	return out, s.c.do(ctx, http.MethodPost, "/v1/tabs/action", req, &out)
}
