package search

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ferrydesk/ferry/backend/errs"
)

// unit is a piece of stage-one work: a slot range, or cached candidates.
type unit struct {
	from, to int
	cands    []cand
	isCache  bool
}

// run is stage one: it returns the matching runs (grouped by unit, for the
// typing cache), the shortlist and the number of matches.
func (p *plan) run(ctx context.Context) ([][]cand, []short, int, error) {
	seeds, seedHeap := p.seed()
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
			buf := scratch.Get().(*[]cand)
			defer scratch.Put(buf)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(work) || failed.Load() {
					return
				}
				if ctx.Err() != nil {
					failed.Store(true)
					return
				}
				out[i] = p.scan(&work[i], h, buf)
			}
		}(&heaps[w])
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, errs.From(err)
	}
	if len(seeds) > 0 {
		out = append(out, seeds)
	}
	total := 0
	for _, c := range out {
		total += len(c)
	}
	merged := seedHeap
	for _, h := range heaps {
		for _, s := range h.items {
			merged.offer(s, p.keep)
		}
	}
	return out, merged.items, total, nil
}

// seed rates the previous keystroke's shortlist before anything else. Those
// runs are the likeliest to stay on top, so once they are rated the bar a
// remembered run must clear to be rated in full (rather than only checked
// for a match) starts high instead of rising slowly from the first runs
// scanned. It returns the seeds that still match, to be remembered as a
// unit of their own, and their heap; the scan skips them (p.skip), and
// when they fill a shortlist its worst becomes p.floor.
func (p *plan) seed() ([]cand, shortHeap) {
	var h shortHeap
	if p.cached == nil || len(p.cached.top) == 0 {
		return nil, h
	}
	top := p.cached.top
	u := unit{cands: top, isCache: true}
	buf := scratch.Get().(*[]cand)
	defer scratch.Put(buf)
	out := p.scan(&u, &h, buf)
	p.skip = make([]uint64, (p.cached.n+63)/64)
	mark := func(cs []cand) {
		for _, c := range cs {
			p.skip[c.slot>>6] |= 1 << (c.slot & 63)
		}
	}
	mark(top)
	if len(h.items) == p.keep {
		p.floor, p.hasFloor = h.items[0], true
	}
	return out, h
}

// bar returns the shortlisted run a run must beat to enter the shortlist,
// given worker heap h and the seeds' floor; false when any run may enter.
func (p *plan) bar(h *shortHeap) (short, bool) {
	if len(h.items) == p.keep {
		if p.hasFloor && p.floor.better(h.items[0]) {
			return p.floor, true
		}
		return h.items[0], true
	}
	return p.floor, p.hasFloor
}

// offer puts a rated run on h unless it cannot beat the bar.
func (p *plan) offer(h *shortHeap, e *entry, c cand) {
	s := short{pre: int32(c.fixed) + c.last.points(), created: e.created, c: c}
	if p.hasFloor && !s.better(p.floor) {
		return
	}
	h.offer(s, p.keep)
}

// scratch holds a worker's list of matches while it scans a unit: the
// list kept (in the typing cache) is then allocated at its exact size.
var scratch = sync.Pool{New: func() any { return new([]cand) }}

// scan runs one unit, offering each match to h, and returns the matches;
// buf is the worker's scratch list.
func (p *plan) scan(u *unit, h *shortHeap, buf *[]cand) []cand {
	out := (*buf)[:0]
	defer func() { *buf = out[:0] }()
	if u.isCache {
		for _, c := range u.cands {
			if p.skip != nil && p.skip[c.slot>>6]&(1<<(c.slot&63)) != 0 {
				continue // a seed, already rated
			}
			e := p.snap.at(int(c.slot))
			if e.dead.Load() {
				continue
			}
			if c.last != unknown && (p.bounded || p.appended) {
				if worst, ok := p.bar(h); ok {
					if p.bounded && !(short{pre: int32(c.fixed) + c.last.points(), created: e.created, c: c}).better(worst) {
						// Tiers only fall as a term grows, so this run cannot
						// reach the shortlist: only whether it still matches
						// matters.
						if c, ok := p.matchOnly(e, c); ok {
							out = append(out, c)
						}
						continue
					}
					if p.bounded {
						if c, ok, done := p.tighten(e, c, worst); done {
							if ok {
								out = append(out, c)
							}
							continue
						}
					}
					if p.appended {
						if c, ok, done := p.extendOnly(e, c, worst); done {
							if ok {
								out = append(out, c)
							}
							continue
						}
					}
				}
			}
			if c, ok := p.narrow(e, c); ok {
				out = append(out, c)
				p.offer(h, e, c)
			}
		}
		return slices.Clone(out)
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
		p.offer(h, e, c)
	}
	return slices.Clone(out)
}

// narrow rates e against the terms, knowing that e matched the cached terms
// as c says (c.last is unknown for a run never rated).
func (p *plan) narrow(e *entry, c cand) (cand, bool) {
	if len(p.terms) == 0 {
		return c, true
	}
	if c.last&fixedBound != 0 {
		c.last = unknown // rate every term again: the fixed score is only a bound
	}
	first, skip := 0, 0
	if c.last != unknown {
		first = len(p.cached.terms) - 1
		skip = len(p.cached.terms[first].s)
	} else {
		c.fixed, c.pend, c.apos = 0, unknownEnd, 0
	}
	prev, from := c.last, c.pend
	for i := first; i < len(p.terms); i++ {
		b, end := prev, from
		if skip != len(p.terms[i].s) || prev&boundOnly != 0 {
			known := skip // the grams of the first skip bytes were seen by the rating prev comes from
			if prev&boundOnly != 0 {
				known = 0
			}
			b, end = p.rate(i, e, prev&^boundOnly, skip, known, from)
		}
		if !b.matches() {
			return c, false
		}
		prev, skip, from = unknown, 0, unknownEnd
		if i == len(p.terms)-1 {
			c.last, c.pend = b, end
			if i > first {
				c.apos = 0 // a new last term: nothing known of it
			}
		} else {
			c.fixed += int16(b.points())
		}
	}
	return c, true
}

// matchOnly decides whether a cached run still matches when only the last
// term grew, without rating fields it does not need: it returns tiers that
// are upper bounds (a field it skipped keeps its earlier tier, which bounds
// the new one), and tierNone only for fields that do not match. The prompt
// goes first: it matches most runs, and checking it keeps c.pend current.
func (p *plan) matchOnly(e *entry, c cand) (cand, bool) {
	i := len(p.terms) - 1
	tm := &p.terms[i]
	skip := len(p.cached.terms[i].s)
	if skip == len(tm.s) {
		return c, true
	}
	b := c.last | boundOnly
	if b.tier(fPrompt) != tierNone {
		if end, ok := tm.promptMatch(&e.prompt, skip, c.pend); ok {
			c.last, c.pend = b, end
			return c, true
		}
		b = b.set(fPrompt, tierNone)
		c.pend = unknownEnd
	}
	// A field left unchecked keeps its earlier tier, an upper bound, so the
	// first field that matches settles it.
	b = b.set(fSite, p.valTier[i][e.site]).set(fModel, p.valTier[i][e.model])
	if b.tier(fSite) != tierNone || b.tier(fModel) != tierNone {
		c.last = b
		return c, true
	}
	if pt := b.tier(fFiles); pt != tierNone {
		best := tierNone
		for k := range e.files {
			best = max(best, tm.tier(&e.files[k], pt, true, false, 0))
		}
		b = b.set(fFiles, best)
		if best != tierNone {
			c.last = b
			return c, true
		}
	}
	if pa := b.tier(fAnswer); pa != tierNone {
		a := &e.answer
		if at := int(c.apos); a.grams != nil && !a.exotic && !tm.exotic && at < len(a.s) && strings.HasPrefix(a.s[at:], tm.s) {
			// Where the shorter term first occurred, the longer one does
			// too: pa stays the bound.
			c.last = b
			return c, true
		}
		known := skip
		if c.last&boundOnly != 0 {
			known = 0 // pa comes from a shorter prefix: not all grams were seen
		}
		t, at := tm.confirmFrom(a, tm.tier(a, pa, false, true, known), int(c.apos))
		b, c.apos = b.set(fAnswer, t), at
	}
	c.last = b
	return c, b.matches()
}

// tighten handles a cached run whose earlier tiers could still reach the
// shortlist when only the last term grew: it rates the cheap fields first
// (prompt, resumed where its match ended, site and model), and when those
// with the earlier tiers of the others as bounds cannot beat worst, keeps
// the run as a match with bound tiers, as matchOnly does. done is false
// when the run needs a full rating.
func (p *plan) tighten(e *entry, c cand, worst short) (cand, bool, bool) {
	i := len(p.terms) - 1
	tm := &p.terms[i]
	skip := len(p.cached.terms[i].s)
	if skip == len(tm.s) {
		return c, false, false
	}
	known := skip
	if c.last&boundOnly != 0 {
		known = 0
	}
	pt, end := tm.promptTier(&e.prompt, c.last.tier(fPrompt), skip, known, c.pend)
	b := (c.last&^boundOnly).set(fPrompt, pt).set(fSite, p.valTier[i][e.site]).set(fModel, p.valTier[i][e.model])
	filesRated := false
	if (short{pre: int32(c.fixed) + b.points(), created: e.created, c: c}).better(worst) {
		// The file names are short and weigh most: rating them settles
		// many runs whose earlier file tier was all that kept them above.
		if ft := b.tier(fFiles); ft != tierNone {
			best := tierNone
			for k := range e.files {
				best = max(best, tm.tier(&e.files[k], ft, true, false, 0))
			}
			b = b.set(fFiles, best)
		}
		filesRated = true
		if (short{pre: int32(c.fixed) + b.points(), created: e.created, c: c}).better(worst) {
			return c, false, false
		}
	}
	if b.tier(fPrompt) != tierNone || b.tier(fSite) != tierNone || b.tier(fModel) != tierNone || filesRated && b.tier(fFiles) != tierNone {
		c.last, c.pend = b|boundOnly, end
		return c, true, true
	}
	// Only the files or the answer can match: matchOnly checks them, and
	// skips the prompt, now known not to match.
	c.last, c.pend = b|c.last&boundOnly, unknownEnd
	c, ok := p.matchOnly(e, c)
	return c, ok, true
}

// extendOnly handles a cached run when whole terms were added after
// unchanged ones: it rates the new terms, and when the run's score bound
// (its cached tiers bound those of the terms already there) cannot beat
// worst, only keeps it as a match with a bound for a fixed score. done is
// false when the run needs a full rating.
func (p *plan) extendOnly(e *entry, c cand, worst short) (cand, bool, bool) {
	var add int32
	var last tiers
	end := uint16(unknownEnd)
	for i := len(p.cached.terms); i < len(p.terms); i++ {
		b, en := p.rate(i, e, unknown, 0, 0, unknownEnd)
		if !b.matches() {
			return c, false, true
		}
		if i == len(p.terms)-1 {
			last, end = b, en
		} else {
			add += b.points()
		}
	}
	bound := int32(c.fixed) + c.last.points() + add
	if (short{pre: bound + last.points(), created: e.created, c: c}).better(worst) {
		return c, false, false
	}
	c.fixed, c.last, c.pend, c.apos = int16(bound), last|fixedBound, end, 0
	return c, true, true
}

// rate returns the tiers of term i on e's fields, bounded by prev, and where
// its match in the prompt ends; skip and from say where a prefix of the term
// ended there (see promptTier), and known how many bytes of it had their
// grams checked by the rating that gave prev.
func (p *plan) rate(i int, e *entry, prev tiers, skip, known int, from uint16) (tiers, uint16) {
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
	pt, end := tm.promptTier(&e.prompt, prev.tier(fPrompt), skip, known, from)
	b = b.with(fPrompt, pt)
	answer := tm.tier(&e.answer, prev.tier(fAnswer), false, true, known)
	if b == 0 {
		// The answer alone decides whether the run matches: no guessing.
		answer = tm.confirm(&e.answer, answer)
	}
	return b.with(fAnswer, answer), end
}
