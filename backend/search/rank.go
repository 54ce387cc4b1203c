package search

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// Stage-two scoring constants, see the package documentation.
const (
	ScoreClamp     = 10000
	ExactBonus     = 100
	WordStartBonus = 150
	snippetRunes   = 160
	snippetLead    = 40
	scoreWindow    = 48
)

// scored is a shortlisted run after stage two.
type scored struct {
	e       *entry
	score   int
	matches []Match
	answer  []int  // rune offsets into the prepared answer
	orig    string // the prepared answer in original case, when built
}

// rank is stage two: it rescores the shortlist with sahilm/fuzzy and returns
// the best limit hits, and how many shortlisted runs it dropped (a term
// found only as letters spread too far, see compactMatch).
func (p *plan) rank(short []short, limit int) ([]Hit, int) {
	all := make([]scored, len(short))
	ok := make([]bool, len(short))
	var wg sync.WaitGroup
	workers := max(min(p.workers, len(short)/16), 1)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(short); i += workers {
				all[i] = scored{e: p.snap.at(int(short[i].c.slot))}
				ok[i] = len(p.terms) == 0 || p.score(&all[i])
			}
		}(w)
	}
	wg.Wait()
	kept := all[:0]
	for i := range all {
		if ok[i] {
			kept = append(kept, all[i])
		}
	}
	dropped := len(all) - len(kept)
	all = kept
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.e.created != b.e.created {
			return a.e.created > b.e.created
		}
		return a.e.id < b.e.id
	})
	if len(all) > limit {
		all = all[:limit]
	}
	hits := make([]Hit, len(all))
	for i := range all {
		hits[i] = p.hit(&all[i])
	}
	return hits, dropped
}

// fieldText is one field of a run as stage two sees it.
type fieldText struct {
	field Field
	file  int
	t     *text
	orig  string
	built bool // orig is set
	pos   []int
}

// score computes sc's final score and match positions; false when some term
// matches no field: stage one takes any subsequence of a prompt, file name,
// site or model as a match, stage two only one whose letters keep together.
func (p *plan) score(sc *scored) bool {
	e := sc.e
	vals := p.snap.values
	fields := []fieldText{
		{field: FieldSite, t: &vals[e.site].t, orig: vals[e.site].raw, built: true},
		{field: FieldModel, t: &vals[e.model].t, orig: vals[e.model].raw, built: true},
	}
	for k := range e.files {
		fields = append(fields, fieldText{field: FieldFile, file: k, t: &e.files[k]})
	}
	fields = append(fields,
		fieldText{field: FieldPrompt, t: &e.prompt},
		fieldText{field: FieldAnswer, t: &e.answer})
	weight := func(f Field) int {
		switch f {
		case FieldSite:
			return fieldWeight[fSite]
		case FieldModel:
			return fieldWeight[fModel]
		case FieldFile:
			return fieldWeight[fFiles]
		case FieldPrompt:
			return fieldWeight[fPrompt]
		}
		return fieldWeight[fAnswer]
	}
	for ti := range p.terms {
		tm := &p.terms[ti]
		matched := false
		bestFile := 0
		for fi := range fields {
			f := &fields[fi]
			tier := tm.tier(f.t, tierWord, f.field != FieldAnswer, false, 0)
			if tier == tierNone {
				continue
			}
			if !f.built {
				f.orig, f.built = f.t.original(), true
			}
			fs, pos, ok := scoreField(tm, f.t, f.orig, tier, f.field == FieldPrompt)
			if !ok {
				continue
			}
			matched = true
			f.pos = append(f.pos, pos...)
			if f.field == FieldFile {
				bestFile = max(bestFile, fs)
				continue
			}
			sc.score += weight(f.field) * fs
		}
		if !matched {
			return false
		}
		sc.score += weight(FieldFile) * bestFile
	}
	for _, f := range fields {
		if len(f.pos) == 0 {
			continue
		}
		slices.Sort(f.pos)
		pos := slices.Compact(f.pos)
		if f.field == FieldAnswer {
			sc.answer, sc.orig = pos, f.orig
			continue
		}
		sc.matches = append(sc.matches, Match{Field: f.field, File: f.file, Positions: pos})
	}
	return true
}

// scoreField scores term tm on one field with sahilm/fuzzy and returns the
// rune offsets to highlight. orig is the field in original case; its byte
// offsets equal those of t.s. When tm occurs contiguously in a long field,
// sahilm scores the window of scoreWindow bytes around that occurrence: the
// occurrence is what gets highlighted, and a 1 KiB answer per shortlisted
// run would otherwise cost more than the rest of the query. A term found only
// as a subsequence counts when its letters keep together (see compactMatch;
// prose says that t is a prompt, where jumps to word starts are not free).
func scoreField(tm *term, t *text, orig string, tier uint8, prose bool) (int, []int, bool) {
	at, word := -1, false
	subject := orig
	if tier >= tierExact {
		if t.exotic || tm.exotic {
			at, _ = tm.occurrenceRunes(t)
			word = at >= 0 && t.isWordStart(at)
		} else if i := strings.Index(t.s, tm.s); i >= 0 {
			at, word = tm.occurrence(t, i, len(t.s))
		}
		if at >= 0 && len(orig) > 2*scoreWindow && len(orig) == len(t.s) {
			lo, hi := max(at-scoreWindow, 0), min(at+len(tm.s)+scoreWindow, len(orig))
			for lo > 0 && !utf8.RuneStart(orig[lo]) {
				lo--
			}
			for hi < len(orig) && !utf8.RuneStart(orig[hi]) {
				hi++
			}
			subject = orig[lo:hi]
		}
	}
	m := fuzzy.FindNoSort(tm.s, []string{subject})
	if len(m) == 0 {
		return 0, nil, false
	}
	// sahilm subtracts one point per unmatched byte: undo that, so a long
	// prompt or answer is not ranked by its length.
	b := m[0].Score + len(subject) - len(m[0].MatchedIndexes)
	fs := min(max(b, 0), ScoreClamp) + 1
	if at >= 0 {
		fs += ExactBonus
		if word {
			fs += WordStartBonus - ExactBonus
		}
		r0 := utf8.RuneCountInString(t.s[:at])
		pos := make([]int, len(tm.runes))
		for i := range pos {
			pos[i] = r0 + i
		}
		return fs, pos, true
	}
	// Only a subsequence: it counts when its letters keep together, and
	// those letters are the ones highlighted.
	pos, ok := tm.compactMatch(t, !prose)
	if !ok {
		return 0, nil, false
	}
	return fs, pos, true
}

// hit renders a scored run.
func (p *plan) hit(sc *scored) Hit {
	e := sc.e
	vals := p.snap.values
	h := Hit{
		ID:      e.id,
		Site:    vals[e.site].raw,
		Model:   vals[e.model].raw,
		State:   vals[e.state].raw,
		Tool:    vals[e.tool].raw,
		Created: time.Unix(0, e.created),
		Files:   slices.Clone(e.fileNames),
		Prompt:  e.prompt.original(),
		Score:   sc.score,
		Matches: sc.matches,
	}
	if sc.orig == "" {
		sc.orig = e.answer.original()
	}
	var pos []int
	h.Snippet, pos = snippet(sc.orig, sc.answer)
	if len(pos) > 0 {
		h.Matches = append(h.Matches, Match{Field: FieldAnswer, Positions: pos})
	}
	return h
}

// snippet cuts about snippetRunes runes of answer around the first of the
// positions and returns the positions inside it, shifted to the snippet.
func snippet(answer string, positions []int) (string, []int) {
	runes := []rune(answer)
	start := 0
	if len(positions) > 0 {
		start = max(positions[0]-snippetLead, 0)
		// Start at a word when one begins shortly after the cut.
		for i := start; start > 0 && i < min(start+15, positions[0]); i++ {
			if runes[i] == ' ' {
				start = i + 1
				break
			}
		}
	}
	end := min(start+snippetRunes, len(runes))
	var b strings.Builder
	shift := -start
	if start > 0 {
		b.WriteString("…")
		shift++
	}
	b.WriteString(string(runes[start:end]))
	if end < len(runes) {
		b.WriteString("…")
	}
	var out []int
	for _, p := range positions {
		if p >= start && p < end {
			out = append(out, p+shift)
		}
	}
	return b.String(), out
}
