package search

import (
	"container/heap"
	"context"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Limits of Query.Limit.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// Field indexes in stage one, and their weights.
const (
	fSite = iota
	fModel
	fFiles
	fPrompt
	fAnswer
	numFields
)

var fieldWeight = [numFields]int{fSite: 2, fModel: 2, fFiles: 4, fPrompt: 3, fAnswer: 1}

// tierPoints is the structural score of a tier in stage one.
var tierPoints = [4]int32{tierNone: 0, tierFuzzy: 1, tierExact: 4, tierWord: 6}

// tiers holds one tier (2 bits) per field.
type tiers uint16

func (b tiers) tier(f int) uint8 { return uint8(b>>(2*f)) & 3 }

func (b tiers) with(f int, t uint8) tiers { return b | tiers(t)<<(2*f) }

// unknown is "no earlier knowledge": every field may match at every tier.
const unknown tiers = 0x3ff

func (b tiers) points() int32 {
	var p int32
	for f := 0; f < numFields; f++ {
		p += int32(fieldWeight[f]) * tierPoints[b.tier(f)]
	}
	return p
}

// cand is a run that matched all terms of a query: the structural score of
// all terms but the last, and the last term's tiers, which bound those of a
// longer last term.
type cand struct {
	slot  int32
	fixed int32
	last  tiers
	pend  uint16 // where the last term's match in the prompt ends, see promptTier
}

// plan is one search over one snapshot.
type plan struct {
	snap     *snapshot
	terms    []term
	from, to int64
	siteOK   []bool // by value id; nil: any
	stateOK  []bool
	valTier  [][]uint8 // [term][value id]: tier of the term on that site or model
	keep     int       // shortlist size
	workers  int
	cached   *cacheEntry // runs matching a query that terms extend, or nil
}

// Search returns the runs matching q, best first. It fails with
// errs.BadInput for an invalid query (negative or too large limit, From
// after To, too many words) and with errs.Cancelled or errs.Timeout when
// ctx ends first.
func (x *Index) Search(ctx context.Context, q Query) (Results, error) {
	if err := ctx.Err(); err != nil {
		return Results{}, errs.From(err)
	}
	limit, err := checkQuery(q)
	if err != nil {
		return Results{}, err
	}
	terms, err := parseTerms(q.Text)
	if err != nil {
		return Results{}, err
	}
	p := &plan{
		snap:    x.snap.Load(),
		terms:   terms,
		from:    math.MinInt64,
		to:      math.MaxInt64,
		keep:    shortlist(limit),
		workers: x.cfg.workers,
	}
	if !q.From.IsZero() {
		p.from = q.From.UnixNano()
	}
	if !q.To.IsZero() {
		p.to = q.To.UnixNano()
	}
	p.siteOK = p.allowed(q.Site)
	p.stateOK = p.allowed(q.State)
	if len(terms) == 0 {
		p.keep = limit
	}
	p.valTier = make([][]uint8, len(terms))
	for i := range terms {
		p.valTier[i] = make([]uint8, len(p.snap.values))
		for v := range p.snap.values {
			p.valTier[i][v] = terms[i].tier(&p.snap.values[v].t, tierWord, true, false, 0)
		}
	}
	key := filterKey{site: strings.ToLower(q.Site), state: strings.ToLower(q.State), from: p.from, to: p.to}
	if len(terms) > 0 {
		p.cached = x.cache.lookup(key, p.snap.epoch, terms)
	}

	units, short, total, err := p.run(ctx)
	if err != nil {
		return Results{}, err
	}
	if len(terms) > 0 {
		x.cache.store(&cacheEntry{key: key, epoch: p.snap.epoch, n: p.snap.n, terms: terms, units: units})
	}
	hits := p.rank(short, limit)
	return Results{Hits: hits, Total: total}, nil
}

func checkQuery(q Query) (int, error) {
	switch {
	case q.Limit < 0:
		return 0, errs.New(errs.BadInput, "the search limit %d is negative", q.Limit).
			WithHint("pass a limit between 1 and %d, or 0 for the default %d", MaxLimit, DefaultLimit)
	case q.Limit > MaxLimit:
		return 0, errs.New(errs.BadInput, "the search limit %d is above the maximum %d", q.Limit, MaxLimit).
			WithHint("pass a limit between 1 and %d, and narrow the search with a site, state or dates", MaxLimit)
	case !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To):
		return 0, errs.New(errs.BadInput, "the search range starts at %s, not before its end %s",
			q.From.Format("2006-01-02 15:04"), q.To.Format("2006-01-02 15:04")).
			WithHint("pass a from date before the to date")
	case q.Limit == 0:
		return DefaultLimit, nil
	}
	return q.Limit, nil
}

// shortlist is how many runs stage two rescores for limit hits.
func shortlist(limit int) int { return min(max(2*limit, 64), 2*MaxLimit) }

// allowed returns which values equal want (case-insensitively), or nil when
// want is empty.
func (p *plan) allowed(want string) []bool {
	if want == "" {
		return nil
	}
	want = strings.ToLower(want)
	ok := make([]bool, len(p.snap.values))
	for i, v := range p.snap.values {
		ok[i] = v.key == want
	}
	return ok
}

// unit is a piece of stage-one work: a slot range, or cached candidates.
type unit struct {
	from, to int
	cands    []cand
	isCache  bool
}

// run is stage one: it returns the matching runs (grouped by unit, for the
// typing cache), the shortlist and the number of matches.
func (p *plan) run(ctx context.Context) ([][]cand, []short, int, error) {
	var work []unit
	start := 0
	if p.cached != nil {
		for _, c := range p.cached.units {
			if len(c) > 0 {
				work = append(work, unit{cands: c, isCache: true})
			}
		}
		start = p.cached.n
	}
	for s := start; s < p.snap.n; s = (s/chunkSize + 1) * chunkSize {
		work = append(work, unit{from: s, to: min((s/chunkSize+1)*chunkSize, p.snap.n)})
	}
	out := make([][]cand, len(work))
	workers := min(p.workers, len(work))
	heaps := make([]shortHeap, workers)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(h *shortHeap) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(work) || failed.Load() {
					return
				}
				if ctx.Err() != nil {
					failed.Store(true)
					return
				}
				out[i] = p.scan(&work[i], h)
			}
		}(&heaps[w])
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, errs.From(err)
	}
	total := 0
	for _, c := range out {
		total += len(c)
	}
	merged := heaps[0]
	for _, h := range heaps[1:] {
		for _, s := range h.items {
			merged.offer(s, p.keep)
		}
	}
	return out, merged.items, total, nil
}

// scan runs one unit, offering each match to h.
func (p *plan) scan(u *unit, h *shortHeap) []cand {
	var out []cand
	if u.isCache {
		out = make([]cand, 0, len(u.cands))
		for _, c := range u.cands {
			e := p.snap.at(int(c.slot))
			if e.dead.Load() {
				continue
			}
			if c, ok := p.narrow(e, c); ok {
				out = append(out, c)
				h.offer(short{pre: c.fixed + c.last.points(), created: e.created, slot: c.slot}, p.keep)
			}
		}
		return out
	}
	for slot := u.from; slot < u.to; slot++ {
		e := p.snap.at(slot)
		if e.dead.Load() || e.created < p.from || e.created >= p.to ||
			(p.siteOK != nil && !p.siteOK[e.site]) || (p.stateOK != nil && !p.stateOK[e.state]) {
			continue
		}
		c, ok := p.narrow(e, cand{slot: int32(slot), last: unknown, pend: unknownEnd})
		if !ok {
			continue
		}
		out = append(out, c)
		h.offer(short{pre: c.fixed + c.last.points(), created: e.created, slot: c.slot}, p.keep)
	}
	return out
}

// narrow rates e against the terms, knowing that e matched the cached terms
// as c says (c.last is unknown for a run never rated).
func (p *plan) narrow(e *entry, c cand) (cand, bool) {
	if len(p.terms) == 0 {
		return c, true
	}
	first, skip := 0, 0
	if c.last != unknown {
		first = len(p.cached.terms) - 1
		skip = len(p.cached.terms[first].s)
	} else {
		c.fixed, c.pend = 0, unknownEnd
	}
	prev, from := c.last, c.pend
	for i := first; i < len(p.terms); i++ {
		b, end := prev, from
		if skip != len(p.terms[i].s) {
			b, end = p.rate(i, e, prev, skip, from)
		}
		if b == 0 {
			return c, false
		}
		prev, skip, from = unknown, 0, unknownEnd
		if i == len(p.terms)-1 {
			c.last, c.pend = b, end
		} else {
			c.fixed += b.points()
		}
	}
	return c, true
}

// rate returns the tiers of term i on e's fields, bounded by prev, and where
// its match in the prompt ends; skip and from say where a prefix of the term
// ended there (see promptTier).
func (p *plan) rate(i int, e *entry, prev tiers, skip int, from uint16) (tiers, uint16) {
	tm := &p.terms[i]
	var b tiers
	b = b.with(fSite, p.valTier[i][e.site])
	b = b.with(fModel, p.valTier[i][e.model])
	if pt := prev.tier(fFiles); pt != tierNone {
		best := tierNone
		for k := range e.files {
			best = max(best, tm.tier(&e.files[k], pt, true, false, 0))
		}
		b = b.with(fFiles, best)
	}
	pt, end := tm.promptTier(&e.prompt, prev.tier(fPrompt), skip, from)
	b = b.with(fPrompt, pt)
	answer := tm.tier(&e.answer, prev.tier(fAnswer), false, true, skip)
	if b == 0 {
		// The answer alone decides whether the run matches: no guessing.
		answer = tm.confirm(&e.answer, answer)
	}
	return b.with(fAnswer, answer), end
}

// short is a shortlisted run.
type short struct {
	pre     int32
	created int64
	slot    int32
}

// better orders shortlisted runs: structural score, then recency.
func (a short) better(b short) bool {
	if a.pre != b.pre {
		return a.pre > b.pre
	}
	if a.created != b.created {
		return a.created > b.created
	}
	return a.slot > b.slot
}

// shortHeap keeps the best runs offered, worst at the root.
type shortHeap struct{ items []short }

func (h *shortHeap) Len() int           { return len(h.items) }
func (h *shortHeap) Less(i, j int) bool { return h.items[j].better(h.items[i]) }
func (h *shortHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *shortHeap) Push(v any)         { h.items = append(h.items, v.(short)) }
func (h *shortHeap) Pop() any {
	v := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return v
}

func (h *shortHeap) offer(s short, keep int) {
	if len(h.items) < keep {
		heap.Push(h, s)
		return
	}
	if s.better(h.items[0]) {
		h.items[0] = s
		heap.Fix(h, 0)
	}
}
