package search

import (
	"math"
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
	first  uint64   // charBit of the first rune
	grams  []uint32 // gramHash of each byte pair and triple of s
	gramAt []int    // byte offset in s of the last byte of each gram
	start  uint32   // gramHash of the first byte pair as a word start
	ascii  bool
	exotic bool // some rune needs rune-by-rune matching, see text.exotic
	// wantEnd: find where the prompt match ends even when the masks alone
	// give the tier (a one-letter term), for the keystrokes that will
	// extend the term. Set on the last term of a query with nothing
	// remembered: a fresh query may take longer than a keystroke, and
	// without it the next keystroke would read every prompt from its start.
	wantEnd bool
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
		t.grams = append(t.grams, gramHash(saltPair, pair(t.s[i-1], t.s[i])))
		t.gramAt = append(t.gramAt, i)
		if i >= 2 {
			t.grams = append(t.grams, gramHash(saltTri, triple(t.s[i-2], t.s[i-1], t.s[i])))
			t.gramAt = append(t.gramAt, i)
		}
	}
	if len(t.s) >= 2 {
		t.start = gramHash(saltStart, pair(t.s[0], t.s[1]))
	}
	if len(runes) > 0 {
		t.first = charBit(runes[0])
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
//
// With quick set, a long field whose gram set holds all of tm's grams is
// taken to contain tm (tierExact, or tierWord when tm's first pair starts a
// word there) without searching it: stage one only ranks with these tiers,
// and stage two checks them. tierNone and tierFuzzy are always exact, which
// is what narrowing relies on; a quick tierExact may be a false positive
// (use confirm before counting a match on it alone).
//
// known > 0 says that tm's first known bytes rated prev >= tierExact here:
// their grams are in t's set, and only the newer ones need a look.
func (tm *term) tier(t *text, prev uint8, fuzzy, quick bool, known int) uint8 {
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
	word := t.starts&charBit(tm.runes[0]) != 0
	if t.grams != nil {
		if !tm.gramsIn(t.grams, known) {
			return tm.fuzzyTier(t, fuzzy)
		}
		word = word && t.grams.has(tm.start)
		if quick {
			switch {
			case fuzzy && !tm.subsequence(t.s):
				return tierNone
			case word:
				return tierWord
			}
			return tierExact
		}
	}
	i := strings.Index(t.s, tm.s)
	if i < 0 {
		return tm.fuzzyTier(t, fuzzy)
	}
	if !word {
		return tierExact
	}
	if _, word := tm.occurrence(t, i, len(t.s)); word {
		return tierWord
	}
	return tierExact
}

// capTier lowers tier bound t of tm on a field with presence masks mask
// and starts: a rune the field lacks rules the field out, and a first rune
// that starts no word there rules out tierWord. Both are exact, so the
// result is still a bound. Exotic terms are matched rune by rune under
// case folding, which the masks cannot judge (exotic fields have every
// mask bit set, so they are never lowered).
func (tm *term) capTier(t uint8, mask, starts uint64) uint8 {
	switch {
	case t == tierNone || tm.exotic:
		return t
	case tm.mask&^mask != 0:
		return tierNone
	case t == tierWord && starts&tm.first == 0:
		return tierExact
	}
	return t
}

// gramsIn reports whether g holds the grams of tm that end at or after byte
// known (the earlier ones are known to be there).
func (tm *term) gramsIn(g *gramSet, known int) bool {
	for i, h := range tm.grams {
		if tm.gramAt[i] >= known && !g.has(h) {
			return false
		}
	}
	return true
}

// confirm checks a quick tier of an exact-only field.
func (tm *term) confirm(t *text, quick uint8) uint8 {
	if quick < tierExact || t.grams == nil || t.exotic || tm.exotic || len(tm.runes) == 1 {
		return quick
	}
	if strings.Contains(t.s, tm.s) {
		return quick
	}
	return tierNone
}

// confirmFrom is confirm for a term whose first contiguous occurrence in t
// is known to start at or after byte from. It returns the tier and where
// that occurrence starts (a lower bound for a longer term, see cand.apos).
func (tm *term) confirmFrom(t *text, quick uint8, from int) (uint8, uint16) {
	if quick < tierExact || t.grams == nil || t.exotic || tm.exotic || len(tm.runes) == 1 {
		return quick, uint16(min(from, math.MaxUint16))
	}
	if from > len(t.s) {
		from = 0
	}
	if i := strings.Index(t.s[from:], tm.s); i >= 0 {
		return quick, uint16(min(from+i, math.MaxUint16))
	}
	return tierNone, 0
}

// fuzzyTier rates a field in which tm does not occur contiguously.
func (tm *term) fuzzyTier(t *text, fuzzy bool) uint8 {
	if fuzzy && tm.subsequence(t.s) {
		return tierFuzzy
	}
	return tierNone
}

// unknownEnd marks a resume offset that is not known.
const unknownEnd = math.MaxUint16

// promptTier is tier for the prompt (fuzzy, quick) that also returns where
// the greedy subsequence match of tm ends, so that the next keystroke only
// matches its new runes: the first skip bytes of tm are known to match
// ending at byte from of t.s (from == unknownEnd: nothing is known), and
// the grams of its first known bytes are in t's set. Greedy
// matching makes this exact: the leftmost match of a longer term starts
// with the leftmost match of its prefix.
func (tm *term) promptTier(t *text, prev uint8, skip, known int, from uint16) (uint8, uint16) {
	switch {
	case prev == tierNone:
		return tierNone, unknownEnd
	case t.exotic || tm.exotic:
		return tm.tierRunes(t, true), unknownEnd
	case tm.mask&^t.mask != 0:
		return tierNone, unknownEnd
	}
	if from == unknownEnd {
		skip, from = 0, 0
	}
	if prev != tierFuzzy && len(tm.runes) == 1 && tm.runes[0] < utf8.RuneSelf && isAlnum(tm.runes[0]) {
		// The mask bit of an ASCII letter or digit is exact, so the masks
		// decide without reading the prompt; where the match ends is left
		// unknown unless wanted, and the next keystroke then matches its
		// two runes from the start, reading the bytes it would have read
		// anyway.
		end := uint16(unknownEnd)
		if tm.wantEnd {
			end = uint16(min(strings.IndexByte(t.s, tm.s[0])+1, unknownEnd))
		}
		if t.starts&tm.mask != 0 {
			return tierWord, end
		}
		return tierExact, end
	}
	end, ok := tm.subsequenceFrom(t.s, int(from), skip)
	if !ok {
		return tierNone, unknownEnd
	}
	resume := uint16(min(end, unknownEnd))
	switch {
	case prev == tierFuzzy:
		return tierFuzzy, resume
	}
	// Here prev is tierWord for "unknown" (known 0) or at least tierExact
	// for the first known bytes: their grams are in the set.
	if t.grams != nil && !tm.gramsIn(t.grams, known) {
		return tierFuzzy, resume
	}
	if t.grams == nil && !strings.Contains(t.s, tm.s) {
		return tierFuzzy, resume
	}
	if t.starts&charBit(tm.runes[0]) != 0 && (t.grams == nil || t.grams.has(tm.start)) {
		return tierWord, resume
	}
	return tierExact, resume
}

// promptMatch is the match decision of promptTier alone.
func (tm *term) promptMatch(t *text, skip int, from uint16) (uint16, bool) {
	switch {
	case t.exotic || tm.exotic:
		return unknownEnd, tm.tierRunes(t, true) != tierNone
	case tm.mask&^t.mask != 0:
		return unknownEnd, false
	}
	if from == unknownEnd {
		skip, from = 0, 0
	}
	end, ok := tm.subsequenceFrom(t.s, int(from), skip)
	return uint16(min(end, unknownEnd)), ok
}

// subsequenceFrom matches tm.s[skip:] greedily in s from byte from and
// returns the byte offset after the last matched rune.
func (tm *term) subsequenceFrom(s string, from, skip int) (int, bool) {
	p := tm.s[skip:]
	if tm.ascii {
		for k := 0; k < len(p); k++ {
			i := strings.IndexByte(s[from:], p[k])
			if i < 0 {
				return 0, false
			}
			from += i + 1
		}
		return from, true
	}
	for _, r := range p {
		var enc [utf8.UTFMax]byte
		n := utf8.EncodeRune(enc[:], r)
		i := strings.Index(s[from:], string(enc[:n]))
		if i < 0 {
			return 0, false
		}
		from += i + n
	}
	return from, true
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
