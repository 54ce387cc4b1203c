package job

import (
	"context"
	"encoding/json"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

// A run whose prompt has left (or may have left) the browser cannot be
// undone when the disk fills: its answer is coming whether or not Ferry can
// write it down. Refusing the run's later writes would lose the answer, so
// the Repo holds them in memory instead: the session as the run left it
// and the journal entries the store refused, in order. Get and Journal show
// the held version, so the CLI, the owner's API and the desktop see the
// answer; the next write that the store accepts writes the session and every
// held entry at once, so the journal catches up as soon as there is room.
// Until then the stored run stays at its last journaled state, which a
// later `ferry reattach` resumes from the conversation.
//
// Writes before the send are never held: a refused write there stops the run
// before anything is typed or sent.

// heldRun is a run whose writes the store refused for a full disk.
type heldRun struct {
	s        *Session
	pending  []Entry
	refusal  *errs.Envelope // the store's first disk_full refusal
	lastSeen State          // the last state the store holds
}

// mayHold reports whether a write to a run in state from may be held in
// memory when the disk is full: the prompt was sent, or may have been.
func mayHold(from State) bool { return from == StateSubmitting || from.Sent() }

// cloneSession is a deep copy of s (held sessions are handed out and
// mutated by Update's callers).
func cloneSession(s *Session) *Session {
	b, err := json.Marshal(s)
	if err != nil {
		cp := *s
		return &cp
	}
	var out Session
	if err := json.Unmarshal(b, &out); err != nil {
		cp := *s
		return &cp
	}
	return &out
}

// heldGet is the held version of run id, or nil.
func (r *Repo) heldGet(id string) *Session {
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	if h := r.held[id]; h != nil {
		return cloneSession(h.s)
	}
	return nil
}

// putHeldEntries writes the journal entries held for run id, in the
// transaction that writes the run's next version.
func (r *Repo) putHeldEntries(tx *store.Tx, id string) error {
	for _, e := range r.heldEntries(id) {
		val, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if err := tx.Put(store.JournalKey(id, e.Seq), val); err != nil {
			return err
		}
	}
	return nil
}

// hold keeps s (and its new journal entry e, if any) in memory after the
// store refused to write them with err, and reports whether it did: only
// for a disk_full refusal of a run whose prompt was sent (from, the state
// before the update).
func (r *Repo) hold(from State, s *Session, e *Entry, err error) bool {
	if s == nil || !errs.Has(err, errs.DiskFull) || !mayHold(from) {
		return false
	}
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	h := r.held[s.ID]
	if h == nil {
		h = &heldRun{refusal: errs.From(err), lastSeen: from}
		if r.held == nil {
			r.held = map[string]*heldRun{}
		}
		r.held[s.ID] = h
	}
	h.s = cloneSession(s)
	if e != nil {
		h.pending = append(h.pending, *e)
	}
	return true
}

// Held reports whether run id has writes that the store refused for a full
// disk and that are held in memory, with the store's refusal (an
// errs.DiskFull envelope naming the directory and the space) and the last
// state the store holds for the run.
func (r *Repo) Held(id string) (refusal *errs.Envelope, journaled State, ok bool) {
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	h := r.held[id]
	if h == nil {
		return nil, "", false
	}
	return h.refusal, h.lastSeen, true
}

// unhold forgets run id once the store holds all of it.
func (r *Repo) unhold(id string) {
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	delete(r.held, id)
}

// heldEntries are the journal entries of run id not yet written.
func (r *Repo) heldEntries(id string) []Entry {
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	if h := r.held[id]; h != nil {
		return append([]Entry(nil), h.pending...)
	}
	return nil
}

// settle reports a run that ended with writes held in memory. It tries
// once more to write them (the disk may have room again: the journal then
// catches up and nothing is reported); otherwise the run's own error stands
// when it has one, and else the error is errs.DiskFull: the answer came,
// the run is journaled only up to the state the store holds, and how to
// journal the rest.
func (r *Runner) settle(ctx context.Context, s *Session, err error) (*Session, error) {
	if s == nil {
		return s, err
	}
	refusal, journaled, held := r.repo.Held(s.ID)
	if !held {
		return s, err
	}
	if out, uerr := r.repo.Update(context.WithoutCancel(ctx), s.ID, "", func(*Session) error { return nil }); uerr == nil {
		s = out
		if refusal, journaled, held = r.repo.Held(s.ID); !held {
			return s, err
		}
	}
	if err != nil {
		return s, err
	}
	dir := refusal.Evidence["dir"]
	env := errs.Wrap(refusal, errs.DiskFull, "the answer came, but the disk holding %s is full: the run is journaled only up to %s, and its answer could not be written to the history", dir, journaled).
		WithHint("free space on the disk that holds %s (or move the data directory with --data-dir or FERRY_DATA_DIR), then run `ferry reattach --session %s` to journal the answer from the conversation without sending the prompt again", dir, s.ID)
	for k, v := range refusal.Evidence {
		env = env.WithEvidence(k, v)
	}
	return s, env.WithEvidence("session", s.ID).WithEvidence("journaled_state", string(journaled))
}

// readTx is getTx that shows the held version of a run first, for the
// readers that go through the search index (List, Active).
func (r *Repo) readTx(tx *store.Tx, id string) (*Session, error) {
	if s := r.heldGet(id); s != nil {
		return s, nil
	}
	return getTx(tx, id)
}
