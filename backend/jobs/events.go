package jobs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// A job's events go two ways: to the hub's event stream (service.Event, whose
// payload is the run event or, at the job's end, the job itself) and to
// in-process watchers of that job (service.JobEvent, typed).

// emitRun publishes ev, an event of rec's run.
func (h *Runner) emitRun(rec jobRecord, ev job.Event) {
	typ := service.EventRunUpdate
	if ev.Kind == job.EventPartial {
		typ = service.EventRunPartial
	}
	h.Publish(service.Event{Type: typ, JobID: rec.ID, ClientID: rec.RequestedBy, Time: ev.At, Data: &service.EventData{Run: &ev}})
	h.notify(service.JobEvent{Type: typ, JobID: rec.ID, Time: ev.At, Run: &ev})
}

// emitEnd publishes the view of rec, which has just recorded its end.
func (h *Runner) emitEnd(ctx context.Context, rec jobRecord) {
	v := h.view(ctx, rec)
	h.Publish(service.Event{Type: service.EventRunUpdate, JobID: rec.ID, ClientID: rec.RequestedBy, Data: &service.EventData{Job: &v}})
	h.notify(service.JobEvent{Type: service.EventRunUpdate, JobID: rec.ID, Time: v.UpdatedAt, Job: &v})
}

// notify hands ev to the watchers of its job. A slow watcher misses events
// rather than slowing the run (it reads the job's state meanwhile).
func (h *Runner) notify(ev service.JobEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch, id := range h.watches {
		if id != ev.JobID {
			continue
		}
		select {
		case ch <- ev:
		default:
		}
	}
}

// Watch delivers the events of job id until stop is called.
func (h *Runner) Watch(id string) (events <-chan service.JobEvent, stop func()) {
	ch := make(chan service.JobEvent, 256)
	h.mu.Lock()
	h.watches[ch] = id
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.watches, ch)
		h.mu.Unlock()
	}
}
