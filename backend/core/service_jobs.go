package core

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/jobs"
	"github.com/ferrydesk/ferry/backend/service"
)

// watchPoll is how often WatchJob reads a job's state besides its events
// (a watcher that missed an event still sees the end).
const watchPoll = 250 * time.Millisecond

// SubmitJob creates a job for c. An agent's job waits for approval unless
// the client is set to auto-approve; the owner's run at once. An agent's
// job names only tabs, conversations and runs of its own unless the user
// granted the client the user's (without the grant, a job naming only a
// site asks in a new chat); it keeps where it runs for its approval. A
// reattach job resumes a run (the owner's only). Errors: req.Validate's;
// errs.HubUnauthorized for an unknown or revoked client; errs.HubForbidden
// for an agent's reattach or a foreign tab, conversation or run; the runner's (errs.BadInput for local paths
// of an agent, errs.UnknownSite, store failures).
func (s *Service) SubmitJob(ctx context.Context, c service.Caller, req service.JobRequest) (service.Job, error) {
	if err := admit(c, "", req); err != nil {
		return service.Job{}, err
	}
	req.RequestedBy = c.Requester()
	if req.Kind == service.KindReattach {
		if err := ownerOnly(c, "resume a run"); err != nil {
			return service.Job{}, err
		}
		res, err := s.h.ReattachSession(ctx, jobs.SessionCheck{Session: req.SessionID, TimeoutMs: req.Timeout().Milliseconds()}, req.RequestedBy)
		return res.Job, err
	}
	opts := jobs.CreateOptions{}
	if !c.IsOwner() {
		rec, err := s.c.clients.Active(ctx, c.Client)
		if err != nil {
			return service.Job{}, err
		}
		sc, err := s.scopeOf(ctx, c)
		if err != nil {
			return service.Job{}, err
		}
		if req, err = sc.checkNames(c, req); err != nil {
			return service.Job{}, err
		}
		files, err := confineFiles(rec, req.Files)
		if err != nil {
			return service.Job{}, err
		}
		opts.AwaitApproval, opts.Target = !rec.AutoApprove, s.targetOf(ctx, sc, req)
		if opts.Target != nil {
			opts.Target.Files = files
		}
		j, err := s.h.CreateJob(ctx, req, opts)
		if err == nil && opts.AwaitApproval {
			s.approvalRequested(j, req, rec.Name)
		}
		return j, err
	}
	return s.h.CreateJob(ctx, req, opts)
}

// visibleJob is job id if c may see it: its own, or any for the owner. A
// job of another client is reported as not found, so ids cannot be probed.
func (s *Service) visibleJob(ctx context.Context, c service.Caller, id string) (service.Job, error) {
	j, err := s.h.GetJob(ctx, id)
	if err != nil {
		return service.Job{}, err
	}
	if !c.IsOwner() && j.RequestedBy != c.Requester() {
		return service.Job{}, errs.New(errs.HubNotFound, "no job %q for this client", service.Summarize(id, 80))
	}
	return j, nil
}

// GetJob returns job req.ID with its run's current state. Errors:
// errs.HubNotFound (also for another client's job); store failures.
func (s *Service) GetJob(ctx context.Context, c service.Caller, req service.JobRef) (service.Job, error) {
	if err := admit(c, "", req); err != nil {
		return service.Job{}, err
	}
	return s.visibleJob(ctx, c, req.ID)
}

// WatchJob follows job req.ID until it has ended, calling on with its run's
// events, and returns its final view. Errors: as GetJob; errs.Cancelled
// when ctx ends first (the job goes on).
func (s *Service) WatchJob(ctx context.Context, c service.Caller, req service.WatchRequest, on func(service.JobEvent)) (service.Job, error) {
	if err := admit(c, "", req); err != nil {
		return service.Job{}, err
	}
	events, stop := s.h.Watch(req.ID)
	defer stop()
	tick := time.NewTicker(watchPoll)
	defer tick.Stop()
	j, err := s.visibleJob(ctx, c, req.ID)
	for err == nil && !j.Ended() {
		select {
		case <-ctx.Done():
			return j, errs.Wrap(ctx.Err(), errs.Cancelled, "stop watching job %s: %v", req.ID, ctx.Err())
		case ev := <-events:
			if on != nil {
				on(ev)
			}
			if ev.Job != nil {
				j = *ev.Job
			}
		case <-tick.C:
			j, err = s.visibleJob(ctx, c, req.ID)
		}
	}
	return j, err
}

// CancelJob stops job req.ID and returns its new state. Errors: as GetJob.
func (s *Service) CancelJob(ctx context.Context, c service.Caller, req service.JobRef) (service.Job, error) {
	if err := admit(c, "", req); err != nil {
		return service.Job{}, err
	}
	before, err := s.visibleJob(ctx, c, req.ID)
	if err != nil {
		return service.Job{}, err
	}
	j, err := s.h.CancelJob(ctx, req.ID)
	if err == nil && before.State == service.StateAwaitingApproval {
		s.approvalResolved(before, false, "cancelled by the client")
	}
	return j, err
}
