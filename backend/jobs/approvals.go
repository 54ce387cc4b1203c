package jobs

import (
	"context"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// PendingApprovals lists the stored jobs that await approval, oldest
// first, with their specs. Errors: errs.StoreCorrupt
// for a record that does not decode; store failures.
func (h *Runner) PendingApprovals(ctx context.Context) ([]Pending, error) {
	recs, err := h.jobs.InState(service.StateAwaitingApproval)
	if err != nil {
		return nil, err
	}
	out := make([]Pending, 0, len(recs))
	for _, rec := range recs {
		out = append(out, Pending{Job: h.view(ctx, rec), Spec: rec.Spec})
	}
	return out, nil
}

// Pending is a job awaiting approval with the request it was made from.
type Pending struct {
	Job  service.Job
	Spec service.JobRequest
}

// ApproveJob starts a job that awaits approval. Errors: errs.HubNotFound;
// errs.HubNotFound also when the job does not await approval; store failures.
func (h *Runner) ApproveJob(ctx context.Context, id string) (service.Job, error) {
	h.mu.Lock()
	rec, err := h.jobs.Get(id)
	if err == nil && rec.State != service.StateAwaitingApproval {
		err = errs.New(errs.HubNotFound, "no job %q awaits approval (it is %s)", id, rec.State)
	}
	if err == nil {
		rec.State, rec.Approval, rec.UpdatedAt = jobStateStarting, job.ApprovalApproved, time.Now().UTC()
		err = h.jobs.Put(rec)
	}
	h.mu.Unlock()
	if err != nil {
		return service.Job{}, err
	}
	h.start(rec)
	return h.view(ctx, rec), nil
}

// RejectJob ends a job that awaits approval without running it: failed,
// with an errs.ApprovalRejected envelope carrying reason. Errors: as
// ApproveJob.
func (h *Runner) RejectJob(ctx context.Context, id, reason string) (service.Job, error) {
	rec, err := h.reject(id, reason)
	if err != nil {
		return service.Job{}, err
	}
	return h.view(ctx, rec), nil
}

// reject records the rejection of job id under h.mu.
func (h *Runner) reject(id, reason string) (jobRecord, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rec, err := h.jobs.Get(id)
	if err != nil {
		return jobRecord{}, err
	}
	if rec.State != service.StateAwaitingApproval {
		return jobRecord{}, errs.New(errs.HubNotFound, "no job %q awaits approval (it is %s)", id, rec.State)
	}
	msg := "the user rejected job " + id
	if strings.TrimSpace(reason) != "" {
		msg += ": " + reason
	}
	rec.State, rec.Approval, rec.UpdatedAt, rec.Ended = string(job.StateFailed), job.ApprovalRejected, time.Now().UTC(), true
	rec.Error = errs.New(errs.ApprovalRejected, "%s", msg).WithEvidence("job", id)
	if err := h.jobs.Put(rec); err != nil {
		return jobRecord{}, err
	}
	return rec, nil
}
