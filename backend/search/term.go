package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
)

// MaxTermRunes is the longest term matched as one: longer ones are cut into
// pieces. sahilm/fuzzy's adjacency bonus triples with every adjacent
// character, so an unbounded run would overflow its int score.
const MaxTermRunes = 24

// maxTerms bounds the work of one query.
const maxTerms = 12

// term is one white-space separated word of a query, folded like text.
type term struct {
	s      string // folded
	runes  []rune // folded
	mask   uint64
	grams  []uint32 // gramHash of each byte pair of s
	ascii  bool
	exotic bool // some rune needs rune-by-rune matching, see text.exotic
}

// parseTerms splits a query into folded terms. Control characters are
// dropped. It fails with errs.BadInput when there are more than maxTerms.
func parseTerms(q string) ([]term, error) {
	var terms []term
	var cur []rune
	flush := func() {
		for len(cur) > 0 {
			n := min(len(cur), MaxTermRunes)
			terms = append(terms, newTerm(cur[:n]))
			cur = cur[n:]
		}
		cur = nil
	}
	for _, r := range q {
		switch {
		case unicode.IsSpace(r):
			flush()
		case unicode.IsControl(r):
		default:
			f, _ := foldRune(r)
			cur = append(cur, f)
		}
	}
	flush()
	if len(terms) > maxTerms {
		return nil, errs.New(errs.BadInput, "the search text has %d words; at most %d are searched", len(terms), maxTerms).
			WithHint("shorten the search text to the %d most telling words", maxTerms)
	}
	return terms, nil
}

func newTerm(runes []rune) term {
	t := term{runes: append([]rune(nil), runes...), s: string(runes), ascii: true}
	for i := 1; i < len(t.s); i++ {
		t.grams = append(t.grams, gramHash(t.s[i-1], t.s[i]))
	}
	for _, r := range runes {
		t.mask |= charBit(r)
		if r >= utf8.RuneSelf {
			t.ascii = false
			if isExotic(r) {
				t.exotic = true
			}
		}
	}
	return t
}

// extends reports whether every run matching the terms old also matches
// terms: the same terms with the last one grown, and possibly more after it.
func extends(terms, old []term) bool {
	if len(old) == 0 || len(terms) < len(old) {
		return false
	}
	last := len(old) - 1
	for i := 0; i < last; i++ {
		if terms[i].s != old[i].s {
			return false
		}
	}
	return strings.HasPrefix(terms[last].s, old[last].s)
}

// Tiers of a (term, field) pair in stage one.
const (
	tierNone  uint8 = iota
	tierFuzzy       // subsequence
	tierExact       // contiguous substring
	tierWord        // contiguous substring starting a word
)

// tier rates term tm on field t, knowing that a prefix of tm rated prev
// there (tierWord when nothing is known): a prefix that did not match, or
// matched only as a subsequence, bounds tm. fuzzy false rates only
// contiguous occurrences (the answer field).
func (tm *term) tier(t *text, prev uint8, fuzzy bool) uint8 {
	switch {
	case prev == tierNone:
		return tierNone
	case t.exotic || tm.exotic:
		return tm.tierRunes(t, fuzzy)
	case tm.mask&^t.mask != 0:
		return tierNone
	case prev == tierFuzzy:
		return tm.fuzzyTier(t, fuzzy)
	}
	if len(tm.runes) == 1 && tm.runes[0] < utf8.RuneSelf && isAlnum(tm.runes[0]) {
		// The mask bits of ASCII letters and digits are exact: the rune is
		// in t, and starts a word there when its starts bit is set.
		if t.starts&tm.mask != 0 {
			return tierWord
		}
		return tierExact
	}
	if t.grams != nil {
		for _, h := range tm.grams {
			if !t.grams.has(h) {
				return tm.fuzzyTier(t, fuzzy)
			}
		}
	}
	i := strings.Index(t.s, tm.s)
	if i < 0 {
		return tm.fuzzyTier(t, fuzzy)
	}
	if t.starts&charBit(tm.runes[0]) == 0 {
		return tierExact
	}
	if _, word := tm.occurrence(t, i, maxOccurrences); word {
		return tierWord
	}
	return tierExact
}

// maxOccurrences bounds the search for a word-start occurrence in stage
// one; stage two looks at all of them.
const maxOccurrences = 8

// fuzzyTier rates a field in which tm does not occur contiguously.
func (tm *term) fuzzyTier(t *text, fuzzy bool) uint8 {
	if fuzzy && tm.subsequence(t.s) {
		return tierFuzzy
	}
	return tierNone
}

// subsequence reports whether tm's runes occur in order in the folded s.
func (tm *term) subsequence(s string) bool {
	if tm.ascii {
		for k := 0; k < len(tm.s); k++ {
			i := strings.IndexByte(s, tm.s[k])
			if i < 0 {
				return false
			}
			s = s[i+1:]
		}
		return true
	}
	var enc [utf8.UTFMax]byte
	for _, r := range tm.runes {
		n := utf8.EncodeRune(enc[:], r)
		i := strings.Index(s, string(enc[:n]))
		if i < 0 {
			return false
		}
		s = s[i+n:]
	}
	return true
}

// occurrence returns the byte offset in t.s of the first occurrence of tm
// that starts a word, or of the first occurrence (from) when none does among
// the first limit.
func (tm *term) occurrence(t *text, from, limit int) (int, bool) {
	for i, n := from, 0; n < limit; n++ {
		if t.isWordStart(i) {
			return i, true
		}
		j := strings.Index(t.s[i+1:], tm.s)
		if j < 0 {
			return from, false
		}
		i += 1 + j
	}
	return from, false
}

// tierRunes is tier for exotic text or terms: rune by rune with sahilm's
// case-insensitive equality.
func (tm *term) tierRunes(t *text, fuzzy bool) uint8 {
	at, ok := tm.occurrenceRunes(t)
	switch {
	case ok && t.isWordStart(at):
		return tierWord
	case ok:
		return tierExact
	case !fuzzy:
		return tierNone
	}
	k := 0
	for _, r := range t.s {
		if k < len(tm.runes) && equalFold(r, tm.runes[k]) {
			k++
		}
	}
	if k == len(tm.runes) {
		return tierFuzzy
	}
	return tierNone
}

// occurrenceRunes finds a contiguous case-insensitive occurrence of tm in
// t.s rune by rune: a word-start one first. It returns its byte offset.
func (tm *term) occurrenceRunes(t *text) (int, bool) {
	found := -1
	for i := range t.s {
		j, k := i, 0
		for k < len(tm.runes) && j < len(t.s) {
			r, size := utf8.DecodeRuneInString(t.s[j:])
			if !equalFold(r, tm.runes[k]) {
				break
			}
			j += size
			k++
		}
		if k < len(tm.runes) {
			continue
		}
		if t.isWordStart(i) {
			return i, true
		}
		if found < 0 {
			found = i
		}
	}
	return found, found >= 0
}

// equalFold reports whether r and s are equal under Unicode simple case
// folding, the equality sahilm/fuzzy matches with.
func equalFold(r, s rune) bool {
	if r == s {
		return true
	}
	if r < s {
		r, s = s, r
	}
	if r < utf8.RuneSelf {
		return 'A' <= s && s <= 'Z' && r == s+'a'-'A'
	}
	f := unicode.SimpleFold(s)
	for f != s && f < r {
		f = unicode.SimpleFold(f)
	}
	return f == r
}
