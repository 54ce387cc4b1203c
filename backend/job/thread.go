package job

import (
	"context"
	"sort"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// A follow-up run continues the conversation of an earlier run: it
// records that run as its Parent and the first run of the conversation as
// its Thread. The repository keeps, with its search index, each thread's
// follow-ups, so that a run's whole thread is listed without a scan.

// threadIndex collects the follow-ups of each thread during the index
// build.
type threadIndex map[string][]threadRun

type threadRun struct {
	id      string
	created time.Time
}

func (t threadIndex) add(s *Session) {
	if s.Thread != "" {
		t[s.Thread] = append(t[s.Thread], threadRun{id: s.ID, created: s.Created})
	}
}

// sorted is the follow-up ids of each thread, oldest first.
func (t threadIndex) sorted() map[string][]string {
	out := make(map[string][]string, len(t))
	for root, runs := range t {
		sort.Slice(runs, func(i, j int) bool {
			if !runs[i].created.Equal(runs[j].created) {
				return runs[i].created.Before(runs[j].created)
			}
			return runs[i].id < runs[j].id
		})
		ids := make([]string, len(runs))
		for i, tr := range runs {
			ids[i] = tr.id
		}
		out[root] = ids
	}
	return out
}

// Thread lists the runs of run id's thread, oldest first: the thread's
// first run, then its follow-ups (id included). It is nil for a run that
// follows none and has none. A run of the thread that is no longer stored
// is left out. Errors: errs.SessionNotFound for id; errs.StoreCorrupt;
// the index build's errors; store failures.
func (r *Repo) Thread(ctx context.Context, id string) ([]*Session, error) {
	s, err := r.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := r.ensureIndex(ctx); err != nil {
		return nil, err
	}
	root := s.Thread
	if root == "" {
		root = s.ID
	}
	r.mu.Lock()
	ids := append([]string{root}, r.threads[root]...)
	r.mu.Unlock()
	if len(ids) == 1 {
		return nil, nil
	}
	out := make([]*Session, 0, len(ids))
	for _, tid := range ids {
		ts, err := r.Get(ctx, tid)
		if errs.Has(err, errs.SessionNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ts)
	}
	return out, nil
}
