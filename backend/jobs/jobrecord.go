package jobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
)

// A hub job is the API's handle on one request: it exists before its run
// (a job awaiting approval has no session yet, and nothing was sent), and
// once the run started it names the session that records it. Jobs live in
// the store under store.HubJobKey, so a job id stays answerable after a
// restart.

// Job states of the hub's own making; once a run has a session the job
// reports the session's state (job.State values).
const (
	jobStateStarting = "starting" // approved or created by the owner; the run is being set up
	// The run has ended and the job is recording what it found, its error
	// or its receipt; the job's end follows at once.
	jobStateFinishing = "finishing"
	// The run waits for its tab, which another run drives; Waiting says
	// which.
	jobStateQueued = service.StateQueued
)

// jobRecord is a hub job as stored.
type jobRecord struct {
	ID          string             `json:"id"`
	Kind        service.JobKind    `json:"kind"`
	Spec        service.JobRequest `json:"spec"`
	State       string             `json:"state"`
	Approval    job.Approval       `json:"approval"`
	Session     string             `json:"session,omitempty"`
	Error       *errs.Envelope     `json:"error,omitempty"`
	Ended       bool               `json:"ended,omitempty"`
	Finding     *job.Finding       `json:"finding,omitempty"` // what a reattach job found
	RequestedBy string             `json:"requestedBy,omitempty"`
	CreatedAt   time.Time          `json:"createdAt"`
	UpdatedAt   time.Time          `json:"updatedAt"`
	Receipt     *codemode.Receipt  `json:"receipt,omitempty"` // of a code job
	// Target is where the job runs, resolved when it was submitted (what
	// its approval shows).
	Target  *service.JobTarget `json:"target,omitempty"`
	Waiting string             `json:"waiting,omitempty"` // what a queued job waits for
}

// hubJobRepo keeps hub jobs in the store. It does no locking of its own:
// runner serialises read-modify-write under its mutex.
type hubJobRepo struct {
	st   *store.Store
	held *heldJobs // updates a full disk refused, see held.go
}

// Put creates or replaces rec. An update of an existing job that the store
// refuses for a full disk is held in memory (Get returns it) and Put
// returns nil. Errors: store failures, errs.DiskFull for a new job.
func (r hubJobRepo) Put(rec jobRecord) error {
	val, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", rec.ID, err)
	}
	if err := r.st.Put(store.HubJobKey(rec.ID), val); err != nil {
		if r.holdRefused(rec, err) {
			return nil
		}
		return fmt.Errorf("store job %s: %w", rec.ID, err)
	}
	r.held.drop(rec.ID)
	return nil
}

// Get returns job id. Errors: errs.HubNotFound (also for an id no key may
// hold); errs.StoreCorrupt; store failures.
func (r hubJobRepo) Get(id string) (jobRecord, error) {
	if store.ValidID(id) != nil {
		return jobRecord{}, errs.New(errs.HubNotFound, "no job %q", clipText(id, 80))
	}
	if rec, ok := r.held.get(id); ok {
		return rec, nil
	}
	val, err := r.st.Get(store.HubJobKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return jobRecord{}, errs.New(errs.HubNotFound, "no job %q", id)
	}
	if err != nil {
		return jobRecord{}, err
	}
	var rec jobRecord
	if err := json.Unmarshal(val, &rec); err != nil {
		return jobRecord{}, errs.Wrap(err, errs.StoreCorrupt, "decode job %s: %v", id, err).WithStage(errs.StageStore)
	}
	return rec, nil
}

// InState returns the stored jobs in state, oldest first. Errors:
// errs.StoreCorrupt for a record that does not decode; store failures.
func (r hubJobRepo) InState(state string) ([]jobRecord, error) {
	return r.matching(func(rec jobRecord) bool { return rec.State == state })
}

// matching returns the stored jobs that keep holds, oldest first.
func (r hubJobRepo) matching(keep func(jobRecord) bool) ([]jobRecord, error) {
	var recs []jobRecord
	err := r.st.Scan(store.PrefixHubJob, func(key, val []byte) error {
		var rec jobRecord
		if err := json.Unmarshal(val, &rec); err != nil {
			return errs.Wrap(err, errs.StoreCorrupt, "decode job %q: %v", key, err).WithStage(errs.StageStore)
		}
		if keep(rec) {
			recs = append(recs, rec)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(recs, func(a, b jobRecord) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return recs, nil
}

// ByRequester returns the stored jobs that requester asked for, oldest
// first. Errors: as InState.
func (r hubJobRepo) ByRequester(requester string) ([]jobRecord, error) {
	return r.matching(func(rec jobRecord) bool { return rec.RequestedBy == requester })
}
