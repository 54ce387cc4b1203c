package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/service"
)

// ListApprovals lists the stored jobs awaiting approval, oldest first, each
// named after its client (marked revoked when it was). Errors:
// errs.HubForbidden for an agent; store failures.
func (s *Service) ListApprovals(ctx context.Context, c service.Caller, req service.ListApprovalsRequest) ([]service.Approval, error) {
	if err := admit(c, "list approvals", req); err != nil {
		return nil, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return nil, err
		}
		return srv.Approvals(), nil
	}
	pending, err := s.h.PendingApprovals(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]service.Approval, 0, len(pending))
	for _, p := range pending {
		name := p.Spec.RequestedBy
		if rec, err := s.c.HubClients().Get(ctx, p.Spec.RequestedBy); err == nil {
			name = rec.Name
			if rec.RevokedAt != nil {
				name += " (revoked)"
			}
		}
		out = append(out, service.Approval{JobID: p.Job.ID, ClientID: p.Spec.RequestedBy, ClientName: name,
			Kind: p.Spec.Kind, Site: p.Spec.Site, Summary: p.Spec.Summary(), RequestedAt: p.Job.CreatedAt.UTC(), Prompt: p.Spec.Text()})
	}
	return out, nil
}

// Approve starts job req.JobID, which awaits approval. Errors:
// errs.HubForbidden for an agent; errs.HubNotFound; errs.BadInput when the
// job does not await approval.
func (s *Service) Approve(ctx context.Context, c service.Caller, req service.ApprovalRef) (service.Job, error) {
	if err := admit(c, "decide approvals", req); err != nil {
		return service.Job{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.Job{}, err
		}
		return srv.Approve(ctx, req.JobID)
	}
	return s.h.ApproveJob(ctx, req.JobID)
}

// Reject ends job req.JobID, which awaits approval, without running it.
// Errors: as Approve.
func (s *Service) Reject(ctx context.Context, c service.Caller, req service.RejectRequest) (service.Job, error) {
	if err := admit(c, "decide approvals", req); err != nil {
		return service.Job{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.Job{}, err
		}
		return srv.Reject(ctx, req.JobID, req.Reason)
	}
	return s.h.RejectJob(ctx, req.JobID, service.Summarize(req.Reason, 500))
}
