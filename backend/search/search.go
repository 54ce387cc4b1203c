package search

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Limits of Query.Limit.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// plan is one search over one snapshot.
type plan struct {
	snap     *snapshot
	terms    []term
	from, to int64
	siteOK   []bool // by value id; nil: any
	stateOK  []bool
	toolOK   []bool
	valTier  [][]uint8 // [term][value id]: tier of the term on that site or model
	keep     int       // shortlist size
	workers  int
	cache    *typingCache
	cached   *cacheEntry // runs matching a query that terms extend, or nil
	// bounded: the terms only grew the cached last term, so a cached run's
	// tiers bound its new ones (see matchOnly). appended: the cached terms
	// are unchanged and new ones follow (see extendOnly).
	bounded, appended bool
	// skip marks the seeds (the cached shortlist, rated first), and floor
	// is the worst of them when they fill a shortlist: no run below it can
	// enter (see seed).
	skip     []uint64
	floor    short
	hasFloor bool
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
		cache:   &x.cache,
	}
	if !q.From.IsZero() {
		p.from = q.From.UnixNano()
	}
	if !q.To.IsZero() {
		p.to = q.To.UnixNano()
	}
	p.siteOK = p.allowed(q.Site)
	states := q.States
	if q.State != "" {
		states = append(slices.Clip(states), q.State)
	}
	p.stateOK = p.allowedAny(states)
	p.toolOK = p.allowedTool(q.Tool)
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
	key := filterKey{site: strings.ToLower(q.Site), state: stateKey(states), tool: strings.ToLower(q.Tool), from: p.from, to: p.to}
	if len(terms) > 0 {
		p.cached = x.cache.lookup(key, p.snap.epoch, p.snap.n, terms)
		defer x.cache.release(p.cached)
		if c := p.cached; c != nil {
			p.bounded = len(c.terms) == len(terms)
			p.appended = !p.bounded && terms[len(c.terms)-1].s == c.terms[len(c.terms)-1].s
		} else {
			terms[len(terms)-1].wantEnd = true
		}
	}

	units, short, total, err := p.run(ctx)
	if err != nil {
		return Results{}, err
	}
	if len(terms) > 0 {
		top := make([]cand, len(short))
		for i, s := range short {
			top[i] = s.c
		}
		x.cache.store(&cacheEntry{key: key, epoch: p.snap.epoch, n: p.snap.n, terms: terms, units: units, top: top})
	}
	hits, dropped := p.rank(short, limit)
	return Results{Hits: hits, Total: total - dropped}, nil
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

// allowedAny returns which values equal one of wants (case-insensitively),
// or nil when wants is empty.
func (p *plan) allowedAny(wants []string) []bool {
	if len(wants) == 0 {
		return nil
	}
	ok := make([]bool, len(p.snap.values))
	for _, w := range wants {
		for i, v := range p.allowed(w) {
			ok[i] = ok[i] || v
		}
	}
	return ok
}

// stateKey is the cache key of a state filter: its states, lower case,
// sorted, without repeats.
func stateKey(states []string) string {
	low := make([]string, len(states))
	for i, s := range states {
		low[i] = strings.ToLower(s)
	}
	slices.Sort(low)
	return strings.Join(slices.Compact(low), ",")
}

// allowedTool returns which values are the tool want (case-insensitively),
// with NoTool the empty value, or nil when want is empty.
func (p *plan) allowedTool(want string) []bool {
	if !strings.EqualFold(want, NoTool) {
		return p.allowed(want)
	}
	ok := make([]bool, len(p.snap.values))
	for i, v := range p.snap.values {
		ok[i] = v.raw == ""
	}
	return ok
}

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
