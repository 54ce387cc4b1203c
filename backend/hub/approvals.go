package hub

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// approvals holds the jobs that wait for the user's decision. The jobs
// themselves live in the Service (in StateAwaitingApproval); this is the
// hub's index of who asked and what for.
type approvals struct {
	mu      sync.Mutex
	pending map[string]Approval
}

func newApprovals() *approvals { return &approvals{pending: map[string]Approval{}} }

func (a *approvals) add(ap Approval) {
	a.mu.Lock()
	a.pending[ap.JobID] = ap
	a.mu.Unlock()
}

// take removes and returns the approval of jobID, so that two decisions on
// the same job cannot both go through.
func (a *approvals) take(jobID string) (Approval, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ap, ok := a.pending[jobID]
	delete(a.pending, jobID)
	return ap, ok
}

func (a *approvals) list() []Approval {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Approval, 0, len(a.pending))
	for _, ap := range a.pending {
		out = append(out, ap)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].RequestedAt.Equal(out[j].RequestedAt) {
			return out[i].RequestedAt.Before(out[j].RequestedAt)
		}
		return out[i].JobID < out[j].JobID
	})
	return out
}

// PendingJob is a job that a Service holds in StateAwaitingApproval, with
// the spec it was created from.
type PendingJob struct {
	Job  Job
	Spec JobSpec
}

// PendingLister is implemented by a Service whose jobs outlive the owner
// process (the core keeps them in the store). Start lists the jobs that
// still await approval, so that after a restart of the owner they are
// listed again and can be approved or rejected.
type PendingLister interface {
	PendingApprovals(ctx context.Context) ([]PendingJob, error)
}

// restoreApprovals indexes the jobs the Service still holds on approval.
// A job whose client is unknown or revoked is listed as well: the user
// decides (rejecting it is the natural answer), nothing runs by itself.
func (s *Server) restoreApprovals(ctx context.Context) error {
	pl, ok := s.svc.(PendingLister)
	if !ok {
		return nil
	}
	jobs, err := pl.PendingApprovals(ctx)
	if err != nil {
		return fmt.Errorf("list jobs awaiting approval: %w", err)
	}
	for _, p := range jobs {
		if p.Job.State != StateAwaitingApproval {
			continue
		}
		name := p.Spec.RequestedBy
		if rec, err := s.clients.Get(ctx, p.Spec.RequestedBy); err == nil {
			name = rec.Name
			if rec.RevokedAt != nil {
				name += " (revoked)"
			}
		}
		s.approvals.add(Approval{
			JobID: p.Job.ID, ClientID: p.Spec.RequestedBy, ClientName: name,
			Kind: p.Spec.Kind, Site: p.Spec.Site, Summary: p.Spec.Summary(),
			RequestedAt: p.Job.CreatedAt.UTC(), Prompt: p.Spec.Text(),
		})
	}
	if len(jobs) > 0 {
		s.log.Info("restored jobs awaiting approval", "count", len(jobs))
	}
	return nil
}
