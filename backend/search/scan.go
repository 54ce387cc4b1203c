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
	// Newest first: on equal scores the newer run wins, so the shortlist
	// fills early with runs that stay, and the bar a run must clear to be
	// rated in full rises fast. Within a unit the scan goes in slot order,
	// the order the runs' text lies in memory.
	slices.SortStableFunc(work, func(a, b unit) int { return b.newest() - a.newest() })
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
func (p *plan) offer(h *shortHeap, e *entry, c *cand) {
	pre := int32(c.fixed) + c.last.points()
	if p.hasFloor && !ranks(pre, e.created, c.slot, p.floor) {
		return
	}
	h.offer(short{pre: pre, created: e.created, c: *c}, p.keep)
}

// scratch holds a worker's list of matches while it scans a unit: the
// list kept (in the typing cache) is then allocated at its exact size.
var scratch = sync.Pool{New: func() any { return new([]cand) }}

// scan runs one unit, offering each match to h, and returns the matches;
// buf is the worker's scratch list.
func (p *plan) scan(u *unit, h *shortHeap, buf *[]cand) []cand {
	out := (*buf)[:0]
	defer func() { *buf = out[:0] }()
	// Each run is rated in place, in its slot at the end of out, and
	// dropped again when it no longer matches: a cand is copied once, not
	// passed and returned by value through every step.
	if u.isCache {
		for k := range u.cands {
			slot := u.cands[k].slot
			if p.skip != nil && p.skip[slot>>6]&(1<<(slot&63)) != 0 {
				continue // a seed, already rated
			}
			e := p.snap.at(int(slot))
			if e.dead.Load() {
				continue
			}
			out = append(out, u.cands[k])
			if !p.rateCached(e, &out[len(out)-1], h) {
				out = out[:len(out)-1]
			}
		}
		return p.cache.keep(out)
	}
	for slot := u.from; slot < u.to; slot++ {
		e := p.snap.at(slot)
		if e.dead.Load() || e.created < p.from || e.created >= p.to ||
			(p.siteOK != nil && !p.siteOK[e.site]) || (p.stateOK != nil && !p.stateOK[e.state]) ||
			(p.toolOK != nil && !p.toolOK[e.tool]) {
			continue
		}
		out = append(out, cand{slot: int32(slot), last: unknown, pend: unknownEnd})
		c := &out[len(out)-1]
		if !p.narrow(e, c) {
			out = out[:len(out)-1]
			continue
		}
		p.offer(h, e, c)
	}
	return p.cache.keep(out)
}

// rateCached rates a remembered run c in place and reports whether it still
// matches; h is the worker's shortlist.
func (p *plan) rateCached(e *entry, c *cand, h *shortHeap) bool {
	if c.last != unknown && (p.bounded || p.appended) {
		if p.bounded {
			c.last = p.capped(e, c.last)
		}
		if worst, ok := p.bar(h); ok {
			if p.bounded && !ranks(int32(c.fixed)+c.last.points(), e.created, c.slot, worst) {
				// Tiers only fall as a term grows, so this run cannot reach
				// the shortlist: only whether it still matches matters.
				return p.matchOnly(e, c)
			}
			if p.bounded {
				if ok, done := p.tighten(e, c, worst); done {
					return ok
				}
			}
			if p.appended {
				if ok, done := p.extendOnly(e, c, worst); done {
					return ok
				}
			}
		}
	}
	if !p.narrow(e, c) {
		return false
	}
	p.offer(h, e, c)
	return true
}

// newest is the highest slot a unit holds.
func (u *unit) newest() int {
	if u.isCache {
		return int(u.cands[len(u.cands)-1].slot)
	}
	return u.to - 1
}

// narrow rates e against the terms, knowing that e matched the cached terms
// as c says (c.last is unknown for a run never rated).
func (p *plan) narrow(e *entry, c *cand) bool {
	if len(p.terms) == 0 {
		return true
	}
	if c.last&fixedBound != 0 {
		c.last = unknown // rate every term again: the fixed score is only a bound
	}
	first, skip := 0, 0
	if c.last != unknown {
		first = len(p.cached.terms) - 1
		skip = len(p.cached.terms[first].s)
	} else {
		c.fixed, c.pend, c.apos, c.win = 0, unknownEnd, 0, window{}
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
			return false
		}
		prev, skip, from = unknown, 0, unknownEnd
		if i == len(p.terms)-1 {
			c.last = b
			c.setPend(end, e.prompt.s)
			if i > first {
				c.forgetAnswer() // a new last term: nothing known of it
			}
		} else {
			c.fixed += int16(b.points())
		}
	}
	return true
}

// matchOnly decides whether a cached run still matches when only the last
// term grew, without rating fields it does not need: it returns tiers that
// are upper bounds (a field it skipped keeps its earlier tier, which bounds
// the new one), and tierNone only for fields that do not match. The prompt
// goes first: it matches most runs, and checking it keeps c.pend current.
func (p *plan) matchOnly(e *entry, c *cand) bool {
	i := len(p.terms) - 1
	tm := &p.terms[i]
	skip := len(p.cached.terms[i].s)
	if skip == len(tm.s) {
		return true
	}
	b := c.last | boundOnly
	if b.tier(fPrompt) != tierNone {
		if ok, decided := p.promptWindow(e, c, skip); decided {
			if ok {
				c.last = b
				return true
			}
		} else if end, ok := tm.promptMatch(&e.prompt, skip, c.pend); ok {
			c.last = b
			c.setPend(end, e.prompt.s)
			return true
		}
		b = b.set(fPrompt, tierNone)
		c.setPend(unknownEnd, "")
	}
	// A field left unchecked keeps its earlier tier, an upper bound, so the
	// first field that matches settles it.
	b = b.set(fSite, p.valTier[i][e.site]).set(fModel, p.valTier[i][e.model])
	if b.tier(fSite) != tierNone || b.tier(fModel) != tierNone {
		c.last = b
		return true
	}
	if pt := b.tier(fFiles); pt != tierNone {
		best := tm.filesTier(e, pt)
		b = b.set(fFiles, best)
		if best != tierNone {
			c.last = b
			return true
		}
	}
	if pa := b.tier(fAnswer); pa != tierNone {
		a := &e.answer
		if c.answerFromWindow(tm.s) {
			// The bytes that follow the shorter term's first occurrence
			// continue it: pa stays the bound.
			c.last = b
			return true
		}
		if at := int(c.apos); a.grams != nil && !a.exotic && !tm.exotic && at < len(a.s) && strings.HasPrefix(a.s[at:], tm.s) {
			// Where the shorter term first occurred, the longer one does
			// too: pa stays the bound.
			c.last = b
			c.setAnswerWindow(a.s, tm.s)
			return true
		}
		known := skip
		if c.last&boundOnly != 0 {
			known = 0 // pa comes from a shorter prefix: not all grams were seen
		}
		t, at := tm.confirmFrom(a, tm.tier(a, pa, false, true, known), int(c.apos))
		b, c.apos, c.win = b.set(fAnswer, t), at, window{}
		if t != tierNone && a.grams != nil && !a.exotic && !tm.exotic && int(at)+len(tm.s) <= len(a.s) && a.s[at:int(at)+len(tm.s)] == tm.s {
			c.setAnswerWindow(a.s, tm.s)
		}
	}
	c.last = b
	return b.matches()
}

// promptWindow decides from c's prompt window whether the prompt still
// matches the last term, which grew from skip bytes (see
// cand.promptFromWindow); decided is false when the prompt must be read.
func (p *plan) promptWindow(e *entry, c *cand, skip int) (ok, decided bool) {
	tm := &p.terms[len(p.terms)-1]
	switch {
	case e.prompt.exotic || tm.exotic:
		return false, false
	case tm.mask&^e.prompt.mask != 0:
		return false, true
	}
	grown := tm.s[skip:]
	for i := 0; i < len(grown); i++ {
		if grown[i] >= 0x80 {
			return false, false
		}
	}
	return c.promptFromWindow(grown)
}

// capped lowers the last term's cached tiers b (bounds of the grown term's)
// by the fields' presence masks and the exact site and model tiers, which
// cost no read of any text; flags in b are kept.
func (p *plan) capped(e *entry, b tiers) tiers {
	i := len(p.terms) - 1
	tm := &p.terms[i]
	if b.tier(fSite) != tierNone {
		b = b.set(fSite, p.valTier[i][e.site])
	}
	if b.tier(fModel) != tierNone {
		b = b.set(fModel, p.valTier[i][e.model])
	}
	b = b.set(fFiles, tm.capTier(b.tier(fFiles), e.fmask, e.fstarts))
	b = b.set(fPrompt, tm.capTier(b.tier(fPrompt), e.prompt.mask, e.prompt.starts))
	return b.set(fAnswer, tm.capTier(b.tier(fAnswer), e.answer.mask, e.answer.starts))
}

// tighten handles a cached run whose earlier tiers could still reach the
// shortlist when only the last term grew: it rates the cheap fields first
// (prompt, resumed where its match ended, site and model), and when those
// with the earlier tiers of the others as bounds cannot beat worst, keeps
// the run as a match with bound tiers, as matchOnly does. done is false
// when the run needs a full rating.
func (p *plan) tighten(e *entry, c *cand, worst short) (ok, done bool) {
	i := len(p.terms) - 1
	tm := &p.terms[i]
	skip := len(p.cached.terms[i].s)
	if skip == len(tm.s) {
		return false, false
	}
	known := skip
	if c.last&boundOnly != 0 {
		known = 0
	}
	pt, end := tm.promptTier(&e.prompt, c.last.tier(fPrompt), skip, known, c.pend)
	b := (c.last&^boundOnly).set(fPrompt, pt).set(fSite, p.valTier[i][e.site]).set(fModel, p.valTier[i][e.model])
	filesRated := false
	if ranks(int32(c.fixed)+b.points(), e.created, c.slot, worst) {
		// The file names are short and weigh most: rating them settles
		// many runs whose earlier file tier was all that kept them above.
		if ft := b.tier(fFiles); ft != tierNone {
			b = b.set(fFiles, tm.filesTier(e, ft))
		}
		filesRated = true
		if ranks(int32(c.fixed)+b.points(), e.created, c.slot, worst) {
			return false, false
		}
	}
	if b.tier(fPrompt) != tierNone || b.tier(fSite) != tierNone || b.tier(fModel) != tierNone || filesRated && b.tier(fFiles) != tierNone {
		c.last = b | boundOnly
		c.setPend(end, e.prompt.s)
		return true, true
	}
	// Only the files or the answer can match: matchOnly checks them, and
	// skips the prompt, now known not to match.
	c.last = b | c.last&boundOnly
	c.setPend(unknownEnd, "")
	return p.matchOnly(e, c), true
}

// extendOnly handles a cached run when whole terms were added after
// unchanged ones: it rates the new terms, and when the run's score bound
// (its cached tiers bound those of the terms already there) cannot beat
// worst, only keeps it as a match with a bound for a fixed score. done is
// false when the run needs a full rating.
func (p *plan) extendOnly(e *entry, c *cand, worst short) (ok, done bool) {
	var add int32
	var last tiers
	end := uint16(unknownEnd)
	for i := len(p.cached.terms); i < len(p.terms); i++ {
		b, en := p.rate(i, e, unknown, 0, 0, unknownEnd)
		if !b.matches() {
			return false, true
		}
		if i == len(p.terms)-1 {
			last, end = b, en
		} else {
			add += b.points()
		}
	}
	bound := int32(c.fixed) + c.last.points() + add
	if ranks(bound+last.points(), e.created, c.slot, worst) {
		return false, false
	}
	c.fixed, c.last = int16(bound), last|fixedBound
	c.forgetAnswer()
	c.setPend(end, e.prompt.s)
	return true, true
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
		b = b.with(fFiles, tm.filesTier(e, pt))
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

// filesTier is the best tier of tm on e's file names, bounded by prev.
func (tm *term) filesTier(e *entry, prev uint8) uint8 {
	best := tierNone
	for k := range e.files {
		best = max(best, tm.tier(&e.files[k], prev, true, false, 0))
	}
	return best
}
