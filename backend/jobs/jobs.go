package jobs

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// view is rec as the API shows it: with its session's live state once the
// run has one. A job this backend still runs whose session has just ended
// shows jobStateFinishing until the job has recorded its end (what a
// reattach found, the run's error, a code step's receipt): a client that
// stops polling at the session's end must not miss them. Not to be called
// with h.mu held.
func (h *Runner) view(ctx context.Context, rec jobRecord) service.Job {
	d := &service.JobDetail{Session: rec.Session, Approval: string(rec.Approval), Spec: rec.Spec, Ended: rec.Ended,
		Finding: rec.Finding, RunError: rec.Error, Receipt: rec.Receipt, Target: rec.Target, Waiting: rec.Waiting}
	out := service.Job{ID: rec.ID, Kind: rec.Kind, State: rec.State, RequestedBy: rec.RequestedBy,
		CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, Error: rec.Error}
	if rec.Session != "" {
		if s, err := h.session(ctx, rec.Session); err == nil {
			d.Run = s
			out.State = string(s.State)
			if !rec.Ended && (s.State.Terminal() || s.State == job.StateStale) && h.isRunning(rec.ID) {
				out.State = jobStateFinishing
			}
			if s.Updated.After(out.UpdatedAt) {
				out.UpdatedAt = s.Updated
			}
			if out.Error == nil && s.Error != nil {
				out.Error = s.Error
			}
		}
	}
	out.Detail = d
	return out
}

// GetJob returns the job id with its run's current state. Errors:
// errs.HubNotFound; errs.StoreCorrupt; store failures.
func (h *Runner) GetJob(ctx context.Context, id string) (service.Job, error) {
	rec, err := h.jobs.Get(id)
	if err != nil {
		return service.Job{}, err
	}
	return h.view(ctx, rec), nil
}

// CancelJob stops a running job (its run journals cancelled, or stays
// collectable when its prompt was already sent) or ends a job awaiting
// approval as cancelled. A finished job is returned unchanged. Errors: as
// GetJob.
func (h *Runner) CancelJob(ctx context.Context, id string) (service.Job, error) {
	h.mu.Lock()
	rec, err := h.jobs.Get(id)
	if err != nil {
		h.mu.Unlock()
		return service.Job{}, err
	}
	cancel := h.running[id]
	if rec.State == service.StateAwaitingApproval {
		rec.State, rec.UpdatedAt, rec.Ended = string(job.StateCancelled), time.Now().UTC(), true
		rec.Error = errs.New(errs.Cancelled, "job %s was cancelled before it was approved", id)
		if err := h.jobs.Put(rec); err != nil {
			h.mu.Unlock()
			return service.Job{}, err
		}
	}
	h.mu.Unlock()
	if cancel != nil {
		cancel()
		h.waitStopped(ctx, id)
	}
	return h.GetJob(ctx, id)
}

// RunningJobs returns the jobs whose run goes on in this backend now (the
// desktop's, the CLI's and agents' alike), oldest first. A job awaiting
// approval is not running; a job left unended by an earlier owner is not
// either. Errors: none (a job whose record cannot be read is left out).
func (h *Runner) RunningJobs(ctx context.Context) []service.Job {
	h.mu.Lock()
	ids := make([]string, 0, len(h.running))
	for id := range h.running {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	out := make([]service.Job, 0, len(ids))
	for _, id := range ids {
		// A job that journaled its end is no longer running, even in the
		// moment before its goroutine leaves h.running.
		if rec, err := h.jobs.Get(id); err == nil && !rec.Ended {
			out = append(out, h.view(ctx, rec))
		}
	}
	slices.SortFunc(out, func(a, b service.Job) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// isRunning reports whether job id runs in this backend now.
func (h *Runner) isRunning(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.running[id]
	return ok
}

// waitStopped waits (briefly) for a cancelled run to journal its end, so
// that the answer to a cancel shows the new state.
func (h *Runner) waitStopped(ctx context.Context, id string) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if !h.isRunning(id) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
