package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The approvals: an agent's job that is not auto-approved is stored in
// service.StateAwaitingApproval (SubmitJob) and waits there, across
// restarts of the owner, until the user approves, rejects or its client
// cancels it. This file is the one place that decides them; each decision
// is an event of the owner's stream (approval.requested, .resolved).

// ListApprovals lists the stored jobs awaiting approval, oldest first, each
// named after its client (marked revoked when it was), with the site, tab
// or conversation and model it would use (service.ApprovalOf). Errors:
// errs.HubForbidden for an agent; store failures.
func (s *Service) ListApprovals(ctx context.Context, c service.Caller, req service.ListApprovalsRequest) ([]service.Approval, error) {
	if err := admit(c, "list approvals", req); err != nil {
		return nil, err
	}
	pending, err := s.h.PendingApprovals(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]service.Approval, 0, len(pending))
	for _, p := range pending {
		name := p.Spec.RequestedBy
		if rec, err := s.c.clients.Get(ctx, p.Spec.RequestedBy); err == nil {
			name = rec.Name
			if rec.RevokedAt != nil {
				name += " (revoked)"
			}
		}
		out = append(out, service.ApprovalOf(p.Job, p.Spec, name))
	}
	return out, nil
}

// GetApproval returns the approval of job req.JobID, which awaits it, as
// ListApprovals shows it. Errors: errs.HubForbidden for an agent;
// errs.HubNotFound when no such job awaits approval; store failures.
func (s *Service) GetApproval(ctx context.Context, c service.Caller, req service.ApprovalRef) (service.Approval, error) {
	list, err := s.ListApprovals(ctx, c, service.ListApprovalsRequest{})
	if err != nil {
		return service.Approval{}, err
	}
	if err := req.Validate(); err != nil {
		return service.Approval{}, err
	}
	for _, ap := range list {
		if ap.JobID == req.JobID {
			return ap, nil
		}
	}
	return service.Approval{}, errs.New(errs.HubNotFound, "no job %q awaits approval", service.Summarize(req.JobID, 80)).
		WithHint("list the jobs that wait for approval")
}

// Approve starts job req.JobID, which awaits approval. Errors:
// errs.HubForbidden for an agent; errs.HubNotFound when no such job awaits
// approval (also one decided already).
func (s *Service) Approve(ctx context.Context, c service.Caller, req service.ApprovalRef) (service.Job, error) {
	if err := admit(c, "decide approvals", req); err != nil {
		return service.Job{}, err
	}
	j, err := s.h.ApproveJob(ctx, req.JobID)
	if err == nil {
		s.approvalResolved(j, true, "")
	}
	return j, err
}

// Reject ends job req.JobID, which awaits approval, without running it.
// Errors: as Approve.
func (s *Service) Reject(ctx context.Context, c service.Caller, req service.RejectRequest) (service.Job, error) {
	if err := admit(c, "decide approvals", req); err != nil {
		return service.Job{}, err
	}
	reason := service.Summarize(req.Reason, 500)
	j, err := s.h.RejectJob(ctx, req.JobID, reason)
	if err == nil {
		s.approvalResolved(j, false, reason)
	}
	return j, err
}

// approvalRequested announces job j of client clientName, which waits for
// the user, asked with req.
func (s *Service) approvalRequested(j service.Job, req service.JobRequest, clientName string) {
	ap := service.ApprovalOf(j, req, clientName)
	s.h.Publish(service.Event{Type: service.EventApprovalRequested, JobID: j.ID, ClientID: j.RequestedBy, Data: &service.EventData{Approval: &ap}})
}

// approvalResolved announces the end of job j's wait.
func (s *Service) approvalResolved(j service.Job, approved bool, reason string) {
	d := service.Decision{JobID: j.ID, Approved: approved, Reason: reason}
	s.h.Publish(service.Event{Type: service.EventApprovalResolved, JobID: j.ID, ClientID: j.RequestedBy, Data: &service.EventData{Decision: &d}})
}
