package job

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/search"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
)

// Repo is the session repository over a store: records, their creation
// index, their journals, and a search index kept in step with every write.
// It is safe for concurrent use; writes are serialized so that the search
// index always reflects the last committed version of each record.
type Repo struct {
	st  *store.Store
	idx *search.Index
	now func() time.Time
	// newID makes a run's id (NewID; a test's own sequence).
	newID func(time.Time) string

	mu    sync.Mutex // serializes writes: store commit then index update
	built bool       // the index holds every stored session (under mu)
	// threads maps the first run of each thread to its follow-ups, oldest
	// first (under mu, built with the index).
	threads map[string][]string

	heldMu sync.Mutex
	held   map[string]*heldRun // runs sent whose writes a full disk refused (under heldMu), see held.go

	// tools lists the tools a Filter may name besides search.NoTool: the
	// sites' (the user's sites define none).
	tools []string
}

// RepoOption configures OpenRepo.
type RepoOption func(*Repo)

// WithClock makes the repository read time from now (tests).
func WithClock(now func() time.Time) RepoOption { return func(r *Repo) { r.now = now } }

// OpenRepo returns the repository over st. Its search index is rebuilt from
// every stored session on first use (List, Active, Len). Errors of that
// rebuild, returned by those calls: a record that does not decode is an
// errs.StoreCorrupt envelope naming its key; store failures as the store
// returns them; errs.Cancelled when ctx ends first.
func OpenRepo(ctx context.Context, st *store.Store, opts ...RepoOption) (*Repo, error) {
	r := &Repo{st: st, idx: search.New(), now: time.Now, newID: NewID, threads: map[string][]string{}, tools: site.Builtin().ToolNames()}
	for _, o := range opts {
		o(r)
	}
	return r, nil
}

// ensureIndex builds the search index from the store on first use, so that
// commands that only read one record (show, export, poll) do not pay for
// it. Writes hold r.mu, so each either precedes the scan or updates the
// built index.
func (r *Repo) ensureIndex(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.built {
		return nil
	}
	st := r.st
	const batch = 4096
	docs := make([]search.Doc, 0, batch)
	flush := func() error {
		if len(docs) == 0 {
			return nil
		}
		err := r.idx.Add(docs...)
		docs = docs[:0]
		return err
	}
	n := 0
	threads := threadIndex{}
	err := st.Scan(store.PrefixSession, func(key, val []byte) error {
		if n++; n%1024 == 0 && ctx.Err() != nil {
			return errs.From(ctx.Err())
		}
		var s Session
		if err := json.Unmarshal(val, &s); err != nil {
			return errs.Wrap(err, errs.StoreCorrupt, "decode session record %s: %v", key, err).WithStage(errs.StageStore)
		}
		docs = append(docs, docOf(&s))
		threads.add(&s)
		if len(docs) == batch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		// Start the next attempt from empty: re-adding the runs this one
		// indexed would fail as duplicates.
		r.idx = search.New()
		return fmt.Errorf("rebuild the session index: %w", err)
	}
	r.built = true
	r.threads = threads.sorted()
	return nil
}

// Index is the search index over the sessions (read-only use: Search),
// built first if needed; a failed build is returned.
func (r *Repo) Index(ctx context.Context) (*search.Index, error) {
	if err := r.ensureIndex(ctx); err != nil {
		return nil, err
	}
	return r.idx, nil
}

// Len is the number of sessions indexed (building the index if needed; 0
// when that fails).
func (r *Repo) Len() int {
	if r.ensureIndex(context.Background()) != nil {
		return 0
	}
	return r.idx.Len()
}

// NewID returns a fresh session id: the creation time to the second (so ids
// sort and read by date) and 6 random hex digits.
func NewID(t time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return t.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

func docOf(s *Session) search.Doc {
	model := s.Model.Slug
	if model == "" {
		model = s.ModelRequested
	}
	var files []string
	for _, a := range s.Artifacts {
		files = append(files, filepath.Base(a.Name))
	}
	return search.Doc{ID: s.ID, Site: s.Site, Model: model, State: string(s.State), Tool: s.ToolAsked(), Created: s.Created,
		Prompt: s.Title(), Answer: s.Answer, Files: files}
}

func notFound(id string) error {
	return errs.New(errs.SessionNotFound, "no session %q", id).WithEvidence("session", id)
}

// Create stores s as a new run and journals its first state. It fills what
// s leaves empty: ID (NewID), Created and Updated (now), State (resolved),
// Origin (cli), Approval (not_required). Errors: errs.BadInput for a record
// without site or prompt, an invalid id or state, or an id already stored;
// store failures as the store returns them.
func (r *Repo) Create(ctx context.Context, s *Session) (*Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, errs.From(err)
	}
	c := *s
	now := r.now().UTC()
	generated := c.ID == ""
	if generated {
		c.ID = r.newID(now)
	}
	if err := store.ValidID(c.ID); err != nil {
		return nil, errs.Wrap(err, errs.BadInput, "session id: %v", err)
	}
	if strings.TrimSpace(c.Site) == "" {
		return nil, errs.New(errs.BadInput, "session %s has no site", c.ID)
	}
	if strings.TrimSpace(c.Prompt) == "" {
		return nil, errs.New(errs.BadInput, "session %s has an empty prompt", c.ID)
	}
	if c.State == "" {
		c.State = StateResolved
	}
	if !c.State.Valid() {
		return nil, errs.New(errs.BadInput, "session %s has unknown state %q", c.ID, c.State)
	}
	if c.Created.IsZero() {
		c.Created = now
	}
	c.Updated = now
	if c.Origin == "" {
		c.Origin = OriginCLI
	}
	if c.Approval == "" {
		c.Approval = ApprovalNotRequired
	}
	c.Seq = 1
	entry := Entry{Seq: 1, State: c.State, At: now, Note: "created"}
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.st.Update(func(tx *store.Tx) error {
		// A generated id is the second and 24 random bits: runs created
		// by the hundred in one second can meet one taken, and take another.
		for try := 0; ; try++ {
			ok, err := tx.Has(store.SessionKey(c.ID))
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			if !generated || try == 16 {
				return errs.New(errs.BadInput, "session %s already exists", c.ID)
			}
			c.ID = r.newID(now)
		}
		return putSession(tx, &c, &entry)
	})
	if err != nil {
		return nil, fmt.Errorf("create session %s: %w", c.ID, err)
	}
	if !r.built {
		return &c, nil
	}
	if err := r.idx.Add(docOf(&c)); err != nil {
		return nil, fmt.Errorf("index session %s: %w", c.ID, err)
	}
	if c.Thread != "" {
		r.threads[c.Thread] = append(r.threads[c.Thread], c.ID)
	}
	return &c, nil
}

func putSession(tx *store.Tx, s *Session, e *Entry) error {
	val, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	if err := tx.Put(store.SessionKey(s.ID), val); err != nil {
		return err
	}
	if err := tx.Put(store.SessionIndexKey(s.Created, s.ID), nil); err != nil {
		return err
	}
	if e != nil {
		ev, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("encode journal entry: %w", err)
		}
		if err := tx.Put(store.JournalKey(s.ID, e.Seq), ev); err != nil {
			return err
		}
	}
	return nil
}

// Get returns the session id. Errors: errs.SessionNotFound; errs.StoreCorrupt
// for a record that does not decode; store failures.
func (r *Repo) Get(ctx context.Context, id string) (*Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, errs.From(err)
	}
	if s := r.heldGet(id); s != nil {
		return s, nil
	}
	var s *Session
	err := r.st.View(func(tx *store.Tx) error {
		var err error
		s, err = getTx(tx, id)
		return err
	})
	return s, err
}

func getTx(tx *store.Tx, id string) (*Session, error) {
	if store.ValidID(id) != nil {
		return nil, notFound(id)
	}
	val, err := tx.Get(store.SessionKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, err
	}
	var s Session
	if err := json.Unmarshal(val, &s); err != nil {
		return nil, errs.Wrap(err, errs.StoreCorrupt, "decode session %s: %v", id, err).WithStage(errs.StageStore)
	}
	return &s, nil
}

// Resolve returns the session whose id is ref or, when none is, the only
// session whose id starts with ref (at least 4 characters). Errors:
// errs.SessionNotFound; errs.SessionAmbiguous listing the matching ids.
func (r *Repo) Resolve(ctx context.Context, ref string) (*Session, error) {
	s, err := r.Get(ctx, ref)
	if err == nil || !errs.Has(err, errs.SessionNotFound) || len(ref) < 4 || store.ValidID(ref) != nil {
		return s, err
	}
	var ids []string
	err = r.st.View(func(tx *store.Tx) error {
		return tx.Scan(store.SessionKey(ref), func(key, _ []byte) error {
			ids = append(ids, string(key[len(store.PrefixSession):]))
			if len(ids) > 10 {
				return errStop
			}
			return nil
		})
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	switch len(ids) {
	case 0:
		return nil, notFound(ref)
	case 1:
		return r.Get(ctx, ids[0])
	}
	return nil, errs.New(errs.SessionAmbiguous, "%q names several sessions: %s", ref, strings.Join(ids, ", ")).
		WithEvidence("sessions", strings.Join(ids, ","))
}

var errStop = errors.New("stop scan")

// Update applies fn to the stored session id and writes it back, in one
// transaction. When fn changes State the move is checked (CanTransition) and
// journaled with note; the fingerprint and error the record then holds are
// copied into the journal entry. Updated is set to now. The store write is
// acknowledged before Update returns: callers rely on that to persist a
// state before the side effect it guards. Errors: errs.SessionNotFound;
// ErrIllegalTransition (wrapped) for a refused move; fn's error unchanged;
// store failures: errs.DiskFull for a run not yet sent. A run whose prompt
// was sent is held in memory when the disk is full (see held.go): Update
// then returns the new version and nil, and Held reports it.
func (r *Repo) Update(ctx context.Context, id, note string, fn func(s *Session) error) (*Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, errs.From(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var (
		out  *Session
		e    *Entry
		from State
	)
	err := r.st.Update(func(tx *store.Tx) error {
		out, e = nil, nil
		s := r.heldGet(id)
		if s == nil {
			var err error
			if s, err = getTx(tx, id); err != nil {
				return err
			}
		}
		var created time.Time
		from, created = s.State, s.Created
		if err := fn(s); err != nil {
			return err
		}
		s.ID, s.Created = id, created
		now := r.now().UTC()
		s.Updated = now
		if s.State != from {
			if err := checkTransition(from, s.State); err != nil {
				return err
			}
			if s.State == StateFailed || s.State == StateCancelled || s.State == StateStale {
				s.StateBefore = from
			}
			s.Seq++
			e = &Entry{Seq: s.Seq, State: s.State, At: now, Note: note, Error: s.Error}
			if s.Fingerprint != nil {
				fp := *s.Fingerprint
				e.Fingerprint = &fp
			}
		}
		out = s
		if err := r.putHeldEntries(tx, id); err != nil {
			return err
		}
		return putSession(tx, s, e)
	})
	switch {
	case err == nil:
		r.unhold(id)
	case r.hold(from, out, e, err):
	default:
		return nil, err
	}
	if !r.built {
		return out, nil
	}
	if err := r.idx.Update(docOf(out)); err != nil {
		if !errs.Has(err, errs.SessionNotFound) {
			return nil, fmt.Errorf("index session %s: %w", id, err)
		}
		if err := r.idx.Add(docOf(out)); err != nil {
			return nil, fmt.Errorf("index session %s: %w", id, err)
		}
	}
	return out, nil
}

// Transition moves session id to state to, applying mutate (if not nil)
// first. A run reaching done keeps no error envelope: the one an earlier
// interruption left becomes a warning. Errors as Update.
func (r *Repo) Transition(ctx context.Context, id string, to State, note string, mutate func(s *Session)) (*Session, error) {
	return r.Update(ctx, id, note, func(s *Session) error {
		if mutate != nil {
			mutate(s)
		}
		if to == StateDone && s.Error != nil {
			// An interruption the run came back from (a cancel or a
			// deadline after the send, then reattach) is history, not
			// the run's outcome: it stays on as a warning.
			s.Warnings = append(s.Warnings, fmt.Sprintf("interrupted before it was collected (%s: %s)", s.Error.Code, s.Error.Message))
			s.Error = nil
		}
		s.State = to
		return nil
	})
}

// Journal returns the journal of session id, oldest first. Errors:
// errs.SessionNotFound; errs.StoreCorrupt for an entry that does not decode.
func (r *Repo) Journal(ctx context.Context, id string) ([]Entry, error) {
	if _, err := r.Get(ctx, id); err != nil {
		return nil, err
	}
	var out []Entry
	err := r.st.Scan(store.JournalPrefix(id), func(key, val []byte) error {
		var e Entry
		if err := json.Unmarshal(val, &e); err != nil {
			return errs.Wrap(err, errs.StoreCorrupt, "decode journal entry %q: %v", key, err).WithStage(errs.StageStore)
		}
		out = append(out, e)
		return nil
	})
	return append(out, r.heldEntries(id)...), err
}

// Filter selects sessions for List. Zero values mean no constraint.
type Filter struct {
	Query string // fuzzy text over prompt, answer, site, model, file names
	Site  string
	State State
	// States, when set, lets a run in any of them through (see search.Query).
	States []State
	// Tool keeps the runs that asked for that tool, or with search.NoTool
	// ("none") those that asked for none.
	Tool  string
	From  time.Time // inclusive lower bound on the run's creation; zero for none
	To    time.Time // exclusive upper bound on the run's creation; zero for none
	Limit int       // default search.DefaultLimit, at most search.MaxLimit
}

// Listed is one session of a List, with the search hit that found it
// (match positions for highlighting, the snippet).
type Listed = record.Listed

// List returns the sessions that pass f: newest first without a query,
// best match first with one. Errors: errs.BadInput for an unknown state or
// tool or an invalid query; store failures.
func (r *Repo) List(ctx context.Context, f Filter) ([]Listed, int, error) {
	hits, total, err := r.Hits(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Listed, 0, len(hits))
	err = r.st.View(func(tx *store.Tx) error {
		for _, h := range hits {
			s, err := r.readTx(tx, h.ID)
			if errs.Has(err, errs.SessionNotFound) {
				continue // removed between the search and the read
			}
			if err != nil {
				return err
			}
			out = append(out, Listed{Session: s, Hit: h})
		}
		return nil
	})
	return out, total, err
}

// Hits is List without reading the runs: the search hits alone, which
// carry what a result row shows (site, model, state, dates, the prompt's
// opening, the answer snippet, match positions), and the number of runs
// that matched. A view that searches on every keystroke uses it: reading
// and decoding a page of whole runs, answers and all, costs more than the
// search. Errors: as List, without the store's.
func (r *Repo) Hits(ctx context.Context, f Filter) ([]search.Hit, int, error) {
	states := make([]string, 0, len(f.States))
	for _, st := range append([]State{f.State}, f.States...) {
		if st != "" && !st.Valid() {
			return nil, 0, errs.New(errs.BadInput, "unknown state %q", st).WithHint("use one of: %s", stateNames())
		}
		if st != "" {
			states = append(states, string(st))
		}
	}
	tool := strings.TrimSpace(f.Tool)
	if err := r.checkTool(tool); err != nil {
		return nil, 0, err
	}
	if err := r.ensureIndex(ctx); err != nil {
		return nil, 0, err
	}
	if r.idx.Len() == 0 {
		// Nothing to rank (and search.Index panics on a text query over an
		// empty index at the time of writing).
		return []search.Hit{}, 0, nil
	}
	res, err := r.idx.Search(ctx, search.Query{Text: f.Query, Site: f.Site, States: states, Tool: tool, From: f.From, To: f.To, Limit: f.Limit})
	if err != nil {
		return nil, 0, err
	}
	return res.Hits, res.Total, nil
}

// Active returns the sessions that may still make progress (not done,
// failed, cancelled or stale), newest first. It asks the search index per
// state, so it costs no scan of the store.
func (r *Repo) Active(ctx context.Context) ([]*Session, error) {
	var hits []search.Hit
	if err := r.ensureIndex(ctx); err != nil {
		return nil, err
	}
	if r.idx.Len() == 0 {
		return nil, nil
	}
	for _, st := range States {
		if !st.Active() {
			continue
		}
		res, err := r.idx.Search(ctx, search.Query{State: string(st), Limit: search.MaxLimit})
		if err != nil {
			return nil, err
		}
		hits = append(hits, res.Hits...)
	}
	slices.SortFunc(hits, func(a, b search.Hit) int { return b.Created.Compare(a.Created) })
	out := make([]*Session, 0, len(hits))
	err := r.st.View(func(tx *store.Tx) error {
		for _, h := range hits {
			s, err := r.readTx(tx, h.ID)
			if errs.Has(err, errs.SessionNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if s.State.Active() {
				out = append(out, s)
			}
		}
		return nil
	})
	return out, err
}

// checkTool refuses a tool filter that is neither "", search.NoTool nor a
// tool of the sites: errs.BadInput naming those it may be.
func (r *Repo) checkTool(tool string) error {
	same := func(t string) bool { return strings.EqualFold(t, tool) }
	if tool == "" || same(search.NoTool) || slices.ContainsFunc(r.tools, same) {
		return nil
	}
	names := strings.Join(append([]string{search.NoTool}, r.tools...), ", ")
	return errs.New(errs.BadInput, "unknown tool %q: a run's tool is one of %s", tool, names).
		WithEvidence("tool", tool).WithHint("use one of: %s", names)
}

func stateNames() string {
	names := make([]string, len(States))
	for i, s := range States {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
