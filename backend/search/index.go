package search

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Default bounds of the prepared text, see the package documentation.
const (
	DefaultAnswerBound = 1 << 10
	DefaultPromptBound = 2 << 10
	fileBound          = 256
	maxFiles           = 64
	minBound           = 64
	chunkSize          = 4096
)

// Option configures New.
type Option func(*config)

type config struct {
	answerBound int
	promptBound int
	workers     int
}

// WithAnswerBound sets how many bytes of each answer (after collapsing white
// space) are indexed. Memory and the time of a query grow linearly with it.
// Values below 64 are taken as 64.
func WithAnswerBound(n int) Option {
	return func(c *config) { c.answerBound = max(n, minBound) }
}

// WithPromptBound sets how many bytes of each prompt are indexed. Values
// below 64 are taken as 64.
func WithPromptBound(n int) Option {
	return func(c *config) { c.promptBound = max(n, minBound) }
}

// WithWorkers sets how many goroutines a search uses; the default is
// GOMAXPROCS. Values below 1 are taken as 1.
func WithWorkers(n int) Option {
	return func(c *config) { c.workers = max(n, 1) }
}

// Index is an in-memory fuzzy index of runs. Its methods are safe for
// concurrent use; see the package documentation for what a search sees of
// concurrent changes.
type Index struct {
	cfg   config
	snap  atomic.Pointer[snapshot]
	cache typingCache

	mu     sync.Mutex // serialises writers; guards the fields below
	byID   map[string]int32
	values map[string]uint32 // interned site, model, state and tool strings
	dead   int
	arenas [3]arena // prompts, answers, file names
}

// entry is one run in its prepared form. Only dead changes after the entry
// is published.
type entry struct {
	// Hot: read for every candidate of every keystroke. The fields up to
	// the prompt's masks fill the first cache line of the entry (chunks
	// are page aligned and an entry is 256 bytes).
	dead        atomic.Bool
	site, model uint32 // indexes into snapshot.values
	state       uint32
	// tool is the tool the run asked for (its value is "" for none); it
	// takes four of the eight bytes the entry had to spare below 256.
	tool    uint32
	created int64 // Unix nanoseconds
	// The presence masks of all file names together (see text.mask): with
	// those of the prompt and answer they cap a remembered run's tiers
	// without reading any text (see plan.capped).
	fmask, fstarts uint64
	prompt         text
	answer         text
	files          []text
	// Cold: rendering.
	id        string
	fileNames []string
}

// An entry is exactly four cache lines, so that every entry of a chunk
// starts on a cache line: a change that grows it or shrinks it should say
// why (both arrays have a negative length otherwise).
var (
	_ [256 - unsafe.Sizeof(entry{})]struct{}
	_ [unsafe.Sizeof(entry{}) - 256]struct{}
)

type chunk [chunkSize]entry

// value is an interned site, model, state or tool string.
type value struct {
	raw string
	key string // lower case, for the filters
	t   text
}

// snapshot is what a search reads: entries [0, n) of the chunks. Writers
// fill slot n of the last chunk before publishing n+1, so a reader never
// sees a slot being written.
type snapshot struct {
	epoch  uint64 // changes when compaction renumbers the slots
	n      int
	chunks []*chunk
	values []value
}

func (s *snapshot) at(slot int) *entry { return &s.chunks[slot/chunkSize][slot%chunkSize] }

// New returns an empty index.
func New(opts ...Option) *Index {
	cfg := config{answerBound: DefaultAnswerBound, promptBound: DefaultPromptBound, workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		o(&cfg)
	}
	x := &Index{cfg: cfg, byID: map[string]int32{}, values: map[string]uint32{}}
	x.snap.Store(&snapshot{})
	return x
}

// Len returns the number of runs in the index.
func (x *Index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.byID)
}

// prepared is a Doc folded outside the writer lock.
type prepared struct {
	doc    Doc
	prompt text
	answer text
	files  []text
}

func (x *Index) prepare(doc Doc) (prepared, error) {
	if doc.ID == "" {
		return prepared{}, errs.New(errs.BadInput, "the run to index has an empty id").
			WithHint("give every indexed run its session id")
	}
	if len(doc.Files) > maxFiles {
		doc.Files = doc.Files[:maxFiles]
	}
	p := prepared{
		doc:    doc,
		prompt: prepare(doc.Prompt, x.cfg.promptBound, false, true),
		answer: prepare(doc.Answer, x.cfg.answerBound, true, true),
		files:  make([]text, len(doc.Files)),
	}
	for i, f := range doc.Files {
		p.files[i] = prepare(f, fileBound, false, false)
	}
	return p, nil
}

// Add indexes new runs. It fails with errs.BadInput, indexing none of them,
// when a run has an empty id or an id already indexed (use Update).
func (x *Index) Add(docs ...Doc) error {
	ps := make([]prepared, len(docs))
	// Folding is the cost of a bulk load (the first index build): spread it
	// over the workers; the writer lock is taken only to publish.
	perr := make([]error, len(docs))
	workers := min(x.cfg.workers, max(len(docs)/256, 1))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(docs); i += workers {
				ps[i], perr[i] = x.prepare(docs[i])
			}
		}(w)
	}
	wg.Wait()
	for _, err := range perr {
		if err != nil {
			return err
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	seen := make(map[string]bool, len(ps))
	for _, p := range ps {
		if _, dup := x.byID[p.doc.ID]; dup || seen[p.doc.ID] {
			return errs.New(errs.BadInput, "run %q is already indexed", p.doc.ID).
				WithHint("use Update to replace an indexed run")
		}
		seen[p.doc.ID] = true
	}
	snap := *x.snap.Load()
	for _, p := range ps {
		x.appendLocked(&snap, p)
	}
	x.snap.Store(&snap)
	return nil
}

// Update replaces an indexed run by doc (matched by ID). It fails with
// errs.BadInput for an empty id and errs.SessionNotFound when the id is not
// indexed.
func (x *Index) Update(doc Doc) error {
	p, err := x.prepare(doc)
	if err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	slot, ok := x.byID[doc.ID]
	if !ok {
		return notIndexed(doc.ID)
	}
	snap := *x.snap.Load()
	// Dead before the new entry is published: a concurrent search may miss
	// the run for an instant, but never lists it twice.
	snap.at(int(slot)).dead.Store(true)
	x.dead++
	x.appendLocked(&snap, p)
	x.snap.Store(&snap)
	x.compactLocked()
	return nil
}

// Remove drops the run with the given id. It fails with
// errs.SessionNotFound when the id is not indexed.
func (x *Index) Remove(id string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	slot, ok := x.byID[id]
	if !ok {
		return notIndexed(id)
	}
	x.snap.Load().at(int(slot)).dead.Store(true)
	delete(x.byID, id)
	x.dead++
	x.compactLocked()
	return nil
}

func notIndexed(id string) error {
	return errs.New(errs.SessionNotFound, "run %q is not in the search index", id).
		WithHint("add the run with Add before updating or removing it")
}

// appendLocked writes p into slot snap.n and advances snap (not yet
// published).
func (x *Index) appendLocked(snap *snapshot, p prepared) {
	if snap.n == len(snap.chunks)*chunkSize {
		// A full-capacity append copies, so published snapshots keep their
		// own chunk list.
		snap.chunks = append(snap.chunks[:len(snap.chunks):len(snap.chunks)], new(chunk))
	}
	e := snap.at(snap.n)
	e.id = p.doc.ID
	e.site = x.internLocked(snap, p.doc.Site)
	e.model = x.internLocked(snap, p.doc.Model)
	e.state = x.internLocked(snap, p.doc.State)
	e.tool = x.internLocked(snap, p.doc.Tool)
	e.created = p.doc.Created.UnixNano()
	x.arenas[0].place(&p.prompt)
	x.arenas[1].place(&p.answer)
	e.prompt, e.answer, e.files = p.prompt, p.answer, x.arenas[2].placeAll(p.files)
	e.fmask, e.fstarts = filesMasks(e.files)
	e.fileNames = append([]string(nil), p.doc.Files...)
	x.byID[p.doc.ID] = int32(snap.n)
	snap.n++
}

// filesMasks returns the presence masks of all of a run's file names.
func filesMasks(files []text) (mask, starts uint64) {
	for i := range files {
		mask |= files[i].mask
		starts |= files[i].starts
	}
	return mask, starts
}

func (x *Index) internLocked(snap *snapshot, raw string) uint32 {
	if id, ok := x.values[raw]; ok {
		return id
	}
	id := uint32(len(snap.values))
	snap.values = append(snap.values[:len(snap.values):len(snap.values)],
		value{raw: raw, key: strings.ToLower(raw), t: prepare(raw, fileBound, false, false)})
	x.values[raw] = id
	return id
}

// compactLocked renumbers the live runs into fresh chunks once dead ones
// make up a quarter of the slots, so Update-heavy use does not grow memory
// without bound. Searches running on the old snapshot are unaffected; the
// typing cache notices the new epoch.
func (x *Index) compactLocked() {
	old := x.snap.Load()
	if x.dead < 1024 || x.dead*4 < old.n {
		return
	}
	next := &snapshot{epoch: old.epoch + 1, values: old.values}
	// A fresh arena, so the blocks holding dead runs' text can be freed.
	x.arenas = [3]arena{}
	for slot := 0; slot < old.n; slot++ {
		e := old.at(slot)
		if e.dead.Load() {
			continue
		}
		if next.n == len(next.chunks)*chunkSize {
			next.chunks = append(next.chunks, new(chunk))
		}
		n := next.at(next.n)
		n.id, n.site, n.model, n.state, n.tool, n.created = e.id, e.site, e.model, e.state, e.tool, e.created
		n.prompt, n.answer, n.fileNames = e.prompt, e.answer, e.fileNames
		x.arenas[0].place(&n.prompt)
		x.arenas[1].place(&n.answer)
		n.files = x.arenas[2].placeAll(e.files)
		n.fmask, n.fstarts = e.fmask, e.fstarts
		x.byID[e.id] = int32(next.n)
		next.n++
	}
	x.dead = 0
	x.snap.Store(next)
}
