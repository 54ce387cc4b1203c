package core

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/jobs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Default listing sizes, as the hub's routes and the CLI use them.
const (
	defaultListLimit   = 50
	defaultSearchLimit = 20
)

// ListSessions lists runs newest first, or best match first with a query:
// an agent's own runs only. Errors: req.Validate's; errs.BadInput for an
// unknown state; errs.HubUnauthorized for an unknown client.
func (s *Service) ListSessions(ctx context.Context, c service.Caller, req service.SessionQuery) ([]service.SessionSummary, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	if req.Limit == 0 {
		req.Limit = defaultListLimit
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return nil, err
	}
	return s.h.ListSessions(ctx, req, sc.keep())
}

// SearchSessions searches runs (site: and state: words filter): an
// agent's own runs only. Errors: as ListSessions.
func (s *Service) SearchSessions(ctx context.Context, c service.Caller, req service.SearchRequest) ([]service.SessionSummary, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	if req.Limit == 0 {
		req.Limit = defaultSearchLimit
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return nil, err
	}
	return s.h.SearchSessions(ctx, req.Query, req.Limit, sc.keep())
}

// ShowSession returns a run with its journal; an agent's own runs only,
// another run being reported as one that does not exist. Errors:
// req.Validate's; errs.SessionNotFound, errs.SessionAmbiguous;
// errs.HubUnauthorized for an unknown client.
func (s *Service) ShowSession(ctx context.Context, c service.Caller, req service.SessionRef) (service.Session, error) {
	if err := admit(c, "", req); err != nil {
		return service.Session{}, err
	}
	if c.IsOwner() {
		return s.h.ShowSession(ctx, req.ID)
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return service.Session{}, err
	}
	id, err := sc.resolveRun(req.ID)
	if err != nil {
		return service.Session{}, err
	}
	v, err := s.h.ShowSession(ctx, id)
	if err != nil || v.Detail == nil {
		return v, err
	}
	// An agent sees the runs of the thread that are its own.
	var thread []service.SessionSummary
	for _, t := range v.Detail.Thread {
		if sc.run(t.ID) {
			thread = append(thread, t)
		}
	}
	if len(thread) < 2 {
		thread = nil
	}
	v.Detail.Thread = thread
	return v, nil
}

// ExportSession renders a run as Markdown or JSON with its secrets
// redacted (job.Export). Errors: as ShowSession.
func (s *Service) ExportSession(ctx context.Context, c service.Caller, req service.ExportRequest) (service.Export, error) {
	if err := admit(c, "", req); err != nil {
		return service.Export{}, err
	}
	id, err := s.visibleRun(ctx, c, req.ID)
	if err != nil {
		return service.Export{}, err
	}
	return s.h.ExportSession(ctx, id, req.Format)
}

// ReportSession builds the failure report of a failed run (see
// jobs.Runner.ReportSession); an agent reports only on its own runs.
// Errors: as ShowSession; errs.BadInput for a run that did not fail.
func (s *Service) ReportSession(ctx context.Context, c service.Caller, req service.ReportRequest) (service.Report, error) {
	if err := admit(c, "", req); err != nil {
		return service.Report{}, err
	}
	id, err := s.visibleRun(ctx, c, req.ID)
	if err != nil {
		return service.Report{}, err
	}
	return s.h.ReportSession(ctx, id)
}

// visibleRun is ref as the owner gives it, or the run of an agent's own
// that ref names. Errors: as scopeOf and scope.resolveRun.
func (s *Service) visibleRun(ctx context.Context, c service.Caller, ref string) (string, error) {
	if c.IsOwner() {
		return ref, nil
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return "", err
	}
	return sc.resolveRun(ref)
}

// PollSession checks a run once. Errors: errs.HubForbidden for an agent; as
// pickSession and checkFresh.
func (s *Service) PollSession(ctx context.Context, c service.Caller, req service.PollRequest) (service.PollResult, error) {
	if err := admit(c, "poll runs", req); err != nil {
		return service.PollResult{}, err
	}
	if req.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	return s.h.PollSession(ctx, jobs.SessionCheck{Session: req.Session, Browser: req.Browser, BrowserURL: req.BrowserURL})
}

// ReattachSession resumes an interrupted run as a job. Errors:
// errs.HubForbidden for an agent; as pickSession; store failures.
func (s *Service) ReattachSession(ctx context.Context, c service.Caller, req service.ReattachRequest) (service.ReattachResult, error) {
	if err := admit(c, "resume a run", req); err != nil {
		return service.ReattachResult{}, err
	}
	return s.h.ReattachSession(ctx, jobs.SessionCheck{Session: req.Session, Browser: req.Browser, BrowserURL: req.BrowserURL, TimeoutMs: req.TimeoutMs, Launch: req.Launch}, c.Requester())
}

// DoctorSessions checks the tabs of active and stale runs. Errors:
// errs.HubForbidden for an agent; as doctorSessions.
func (s *Service) DoctorSessions(ctx context.Context, c service.Caller, req service.DoctorRequest) ([]service.DoctorReport, error) {
	if err := admit(c, "check runs' tabs", req); err != nil {
		return nil, err
	}
	return s.h.DoctorSessions(ctx, jobs.SessionCheck{Browser: req.Browser, BrowserURL: req.BrowserURL, Recover: req.Recover})
}
