package jobs

import (
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

// heldJobs keeps the jobs whose updates a full disk refused. A job that
// exists has a client waiting on it: its end (the run's answer, its error)
// must reach that client whatever the disk, so an update the store refuses
// with errs.DiskFull is kept here and served by Get until a later write of
// the job succeeds. A new job is never held: CreateJob refuses it, before
// anything runs.
type heldJobs struct {
	mu   sync.Mutex
	recs map[string]jobRecord
}

func (h *heldJobs) get(id string) (jobRecord, bool) {
	if h == nil {
		return jobRecord{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	rec, ok := h.recs[id]
	return rec, ok
}

func (h *heldJobs) put(rec jobRecord) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.recs == nil {
		h.recs = map[string]jobRecord{}
	}
	h.recs[rec.ID] = rec
}

func (h *heldJobs) drop(id string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.recs, id)
}

// holdRefused keeps rec in memory when err is the store's disk_full refusal
// of an update of a job that exists, and reports whether it did.
func (r hubJobRepo) holdRefused(rec jobRecord, err error) bool {
	if r.held == nil || !errs.Has(err, errs.DiskFull) {
		return false
	}
	if _, ok := r.held.get(rec.ID); !ok {
		if _, gerr := r.st.Get(store.HubJobKey(rec.ID)); gerr != nil {
			return false
		}
	}
	r.held.put(rec)
	return true
}
