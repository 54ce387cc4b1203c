package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// RetryJob submits job req.ID's request again, as c's new job (to the same
// site, tab and model; a job naming no tab prefers the retried run's tab,
// and a new chat that sent nothing reuses it). Errors: errs.HubForbidden for an agent;
// errs.HubNotFound; errs.StoreCorrupt for a job without its record; as
// SubmitJob.
func (s *Service) RetryJob(ctx context.Context, c service.Caller, req service.JobRef) (service.Job, error) {
	if err := admit(c, "retry runs", req); err != nil {
		return service.Job{}, err
	}
	j, err := s.visibleJob(ctx, c, req.ID)
	if err != nil {
		return service.Job{}, err
	}
	if j.Detail == nil {
		return service.Job{}, errs.New(errs.StoreCorrupt, "read run %s: it carries no record", req.ID)
	}
	again := j.Detail.Spec
	if j.Detail.Run != nil {
		// The run retried is the one on screen: the retry goes to its
		// tab, and a new chat that sent nothing there takes it again
		// rather than opening another (tabs/pref.go).
		again.ShownRun = j.Detail.Run.ID
	}
	return s.SubmitJob(ctx, c, again)
}

// ListActiveJobs lists the jobs whose run goes on now, whoever asked for
// them, oldest first (a job awaiting approval is not running). Errors:
// errs.HubForbidden for an agent.
func (s *Service) ListActiveJobs(ctx context.Context, c service.Caller, req service.ListActiveJobsRequest) ([]service.Job, error) {
	if err := admit(c, "list every run", req); err != nil {
		return nil, err
	}
	return s.h.RunningJobs(ctx), nil
}
