package job

import (
	"context"
	"fmt"
	"slices"

	"github.com/ferrydesk/ferry/backend/provider"
)

// Deliverable judges what an extracted run delivered and, for a code-mode
// run, brings its artifacts home (finds, fetches, verifies and saves them),
// with a the adapter of the tab the answer came from. It must not send
// anything. It returns what to record; an error (an envelope) fails the run
// after the record, artifacts included, was written.
type Deliverable func(ctx context.Context, s *Session, a provider.Adapter) (Delivery, error)

// Delivery is what a Deliverable adds to the record of its run.
type Delivery struct {
	// Artifacts are the files the run produced, each with its verdict
	// (also the ones that failed verification).
	Artifacts []Artifact
	// Receipts are proof layers to append (the content contract's check,
	// the download).
	Receipts []Receipt
	Warnings []string
	// Archived says the conversation was archived on the site.
	Archived bool
	// Filed says the conversation's address proves it was filed in the
	// run's Place.
	Filed bool
}

// WithDeliverable makes the Runner call d once a run's answer is
// extracted, before the run is done: a code-mode run then goes through
// artifacts_retrieved and artifacts_verified (journaled), any other run
// straight to done; an error from d fails the run. Without it an extracted
// run is done at once (a code-mode one with a warning that its artifacts
// were not retrieved).
func WithDeliverable(d Deliverable) RunnerOption { return func(r *Runner) { r.deliver = d } }

// deliverAndFinish runs the Runner's Deliverable on an extracted run and
// journals the artifact states; see WithDeliverable. A reattached code-mode
// run may already be at artifacts_retrieved or artifacts_verified: the
// Deliverable then runs again (it finds the zips it already saved and does
// not fetch them twice), its artifacts replace the recorded ones of the same
// file, and the run goes on from its state.
func (r *Runner) deliverAndFinish(ctx context.Context, s *Session, a provider.Adapter) (*Session, error) {
	d, derr := r.deliver(ctx, s, a)
	var err error
	if s.CodeMode && (derr == nil || len(d.Artifacts) > 0) {
		// Something came home (or nothing had to): the fetch is over.
		keep := func(x *Session) { x.Artifacts = mergeArtifacts(x.Artifacts, d.Artifacts) }
		if s.State == StateExtracted {
			note := fmt.Sprintf("%d artifact(s) fetched", len(d.Artifacts))
			if s, err = r.move(ctx, s.ID, StateArtifactsRetrieved, note, keep); err != nil {
				return s, err
			}
		} else if s, err = r.repo.Update(ctx, s.ID, "", func(x *Session) error { keep(x); return nil }); err != nil {
			return s, err
		}
		d.Artifacts = nil
	}
	if derr != nil {
		if len(d.Artifacts) > 0 || len(d.Receipts) > 0 || len(d.Warnings) > 0 {
			if s, err = r.repo.Update(context.WithoutCancel(ctx), s.ID, "", func(x *Session) error {
				x.Artifacts = mergeArtifacts(x.Artifacts, d.Artifacts)
				x.Receipts = append(x.Receipts, d.Receipts...)
				x.Warnings = append(x.Warnings, d.Warnings...)
				return nil
			}); err != nil {
				return s, err
			}
		}
		return r.stop(ctx, s, derr)
	}
	if s.CodeMode && s.State == StateArtifactsRetrieved {
		if s, err = r.move(ctx, s.ID, StateArtifactsVerified, "artifacts verified", nil); err != nil {
			return s, err
		}
	}
	return r.move(context.WithoutCancel(ctx), s.ID, StateDone, "done", func(x *Session) {
		x.Archived = x.Archived || d.Archived
		if x.Place != nil && d.Filed {
			x.Place.Filed = true
		}
		x.Artifacts = mergeArtifacts(x.Artifacts, d.Artifacts)
		x.Receipts = append(x.Receipts, d.Receipts...)
		x.Warnings = append(x.Warnings, d.Warnings...)
	})
}

// mergeArtifacts adds add to have, an artifact of add replacing the one of
// have that names the same file (its path, else its name), so that a
// Deliverable run again on reattach records each file once.
func mergeArtifacts(have, add []Artifact) []Artifact {
	key := func(x Artifact) string {
		if x.Path != "" {
			return "p:" + x.Path
		}
		return "n:" + x.Name
	}
	out := append([]Artifact(nil), have...)
	for _, x := range add {
		i := slices.IndexFunc(out, func(y Artifact) bool { return key(y) == key(x) })
		if i >= 0 {
			out[i] = x
			continue
		}
		out = append(out, x)
	}
	return out
}
