package job

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/store"
)

// snapshotTimeout bounds the snapshot of a failed run: the failure is
// reported at most this much later, whatever the page does. It is a bound
// for a page that hangs: on a busy machine a whole snapshot takes seconds.
const snapshotTimeout = 20 * time.Second

// maxSnapshotBytes is the largest snapshot record stored; a larger one is
// stored without its screenshot.
const maxSnapshotBytes = 3 << 20

// WithoutFailureScreenshots makes failure snapshots leave the screenshot
// out (the setting run.noFailureScreenshot): it shows the page as it was,
// which no redaction can clean.
func WithoutFailureScreenshots() RunnerOption {
	return func(r *Runner) { r.noScreenshot = true }
}

// snapshot keeps, with session s, a snapshot of the tab at its failure
// when the adapter can take one (provider.Snapshotter). It is bounded by
// snapshotTimeout, runs even when ctx has ended, and never fails the run:
// a snapshot that cannot be taken or stored is left out.
func (r *Runner) snapshot(ctx context.Context, s *Session, a provider.Adapter) {
	sn, ok := a.(provider.Snapshotter)
	if !ok || s == nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), snapshotTimeout)
	defer cancel()
	snap, err := sn.Snapshot(sctx, provider.SnapshotOptions{Screenshot: !r.noScreenshot, Secrets: []string{s.Prompt}})
	if err != nil || snap == nil {
		return
	}
	// The store gets its own bound: a snapshot that took its whole time
	// is still kept.
	pctx, pcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer pcancel()
	_ = r.repo.PutSnapshot(pctx, s.ID, snap)
}

// PutSnapshot stores snap as the failure snapshot of session id, replacing
// one stored before. A snapshot larger than its bound is stored without
// its screenshot. Errors: errs.SessionNotFound for an invalid id; the
// store's (errs.DiskFull among them).
func (r *Repo) PutSnapshot(ctx context.Context, id string, snap *provider.Snapshot) error {
	if err := ctx.Err(); err != nil {
		return errs.From(err)
	}
	if store.ValidID(id) != nil {
		return notFound(id)
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return errs.Wrap(err, errs.Internal, "encode snapshot of %s: %v", id, err)
	}
	if len(b) > maxSnapshotBytes && snap.Screenshot != nil {
		c := *snap
		c.Screenshot = nil
		c.Problems = append(append([]string(nil), snap.Problems...), "screenshot: the snapshot outgrew its bound, left out")
		if b, err = json.Marshal(&c); err != nil {
			return errs.Wrap(err, errs.Internal, "encode snapshot of %s: %v", id, err)
		}
	}
	if len(b) > maxSnapshotBytes {
		return errs.New(errs.Internal, "the snapshot of %s is %d bytes, above its bound", id, len(b))
	}
	return r.st.Put(store.SnapshotKey(id), b)
}

// Snapshot returns the failure snapshot of session id, or nil when the run
// has none. Errors: errs.StoreCorrupt for one that does not decode; the
// store's.
func (r *Repo) Snapshot(ctx context.Context, id string) (*provider.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, errs.From(err)
	}
	if store.ValidID(id) != nil {
		return nil, notFound(id)
	}
	b, err := r.st.Get(store.SnapshotKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var snap provider.Snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return nil, errs.Wrap(err, errs.StoreCorrupt, "decode snapshot of %s: %v", id, err).WithStage(errs.StageStore)
	}
	return &snap, nil
}
