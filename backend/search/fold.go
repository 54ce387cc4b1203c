package search

import (
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// text is a field in the prepared form searched on every keystroke: folded
// to lower case rune by rune (so it has exactly as many runes as the
// original, and rune offsets carry over), with the positions that were upper
// case kept in a bitmap so the original can be rebuilt for scoring and
// snippets without storing it twice.
type text struct {
	// The masks come first: with the entry's own hot fields they fill its
	// first cache line, which is all a remembered run needs on most
	// keystrokes (see plan.capped).
	mask   uint64   // charBit of every rune in s
	starts uint64   // charBit of every rune that starts a word
	s      string   // folded text
	grams  *gramSet // nil for short fields
	// exotic: s holds a rune whose case-fold orbit folds to more than one
	// rune (the Kelvin sign, the long s ...), so byte comparison of folded
	// text could miss a match that sahilm/fuzzy's equalFold finds. Such
	// fields are matched rune by rune instead.
	exotic bool
	upper  []uint64 // bit i: the rune starting at byte i of s was upper case; nil when none was
}

// prepare folds raw into a text of at most bound bytes (cut at a rune
// boundary). collapse turns every run of white space into one space and
// drops leading white space; without it, the rune count of the prepared text
// equals that of raw's prefix, so rune offsets index raw itself. Invalid
// UTF-8 bytes and NUL become U+FFFD and space, one rune each, as
// utf8.DecodeRune counts them. grams adds the bigram set (long fields).
func prepare(raw string, bound int, collapse, grams bool) text {
	var t text
	buf := make([]byte, 0, min(len(raw), bound))
	var g *gramSet
	if grams {
		g = new(gramSet)
	}
	prevSpace := true // drops leading space when collapsing
	prevAlnum, prevUpper, prevLetter := false, false, false
	startAt := -1 // byte offset of the last rune that started a word
	for i := 0; i < len(raw); {
		var f rune
		var up, alnum, letter bool
		var bit uint64
		if c := raw[i]; c < utf8.RuneSelf {
			// ASCII, the bulk of the text: one table lookup.
			i++
			a := &asciiTable[c]
			if collapse && a.space {
				if prevSpace {
					continue
				}
				a = &asciiTable[' ']
				prevSpace = true
			} else {
				prevSpace = false
			}
			f, up, alnum, letter, bit = rune(a.fold), a.upper, a.alnum, a.letter, a.bit
			if len(buf)+1 > bound {
				break
			}
			buf = append(buf, a.fold)
		} else {
			r, size := utf8.DecodeRuneInString(raw[i:])
			i += size
			if collapse {
				if unicode.IsSpace(r) {
					if prevSpace {
						continue
					}
					prevSpace = true
					r = ' '
				} else {
					prevSpace = false
				}
			}
			f, up = foldRune(r)
			if len(buf)+utf8.RuneLen(f) > bound {
				break
			}
			buf = utf8.AppendRune(buf, f)
			alnum, letter, bit = isAlnum(f), isLetter(f), charBit(f)
			if f >= utf8.RuneSelf && !t.exotic && isExotic(f) {
				t.exotic = true
			}
		}
		at := len(buf) - utf8.RuneLen(f)
		if up {
			for len(t.upper) <= at/64 {
				t.upper = append(t.upper, 0)
			}
			t.upper[at/64] |= 1 << (at % 64)
		}
		t.mask |= bit
		if at == 0 || !prevAlnum || (up && !prevUpper && prevLetter) {
			t.starts |= bit
			startAt = at
		}
		if g != nil {
			// The grams of the bytes just written, and the first pair of
			// the word that starts one byte before them.
			for j := max(at, 1); j < len(buf); j++ {
				g.add(gramHash(saltPair, pair(buf[j-1], buf[j])))
				if j >= 2 {
					g.add(gramHash(saltTri, triple(buf[j-2], buf[j-1], buf[j])))
				}
				if j-1 == startAt {
					g.add(gramHash(saltStart, pair(buf[j-1], buf[j])))
				}
			}
		}
		prevAlnum, prevUpper, prevLetter = alnum, up, letter
	}
	t.s = string(buf)
	t.grams = g
	if t.exotic {
		// Byte-level rejection is unsound for exotic text: let every query
		// through to the rune-by-rune matcher.
		t.mask, t.starts = ^uint64(0), ^uint64(0)
		t.grams = nil
	}
	return t
}

// asciiInfo is what prepare needs to know of an ASCII byte.
type asciiInfo struct {
	bit                         uint64
	fold                        byte
	upper, alnum, letter, space bool
}

var asciiTable = func() (tab [utf8.RuneSelf]asciiInfo) {
	for c := range tab {
		r := rune(c)
		f, up := foldRune(r)
		tab[c] = asciiInfo{bit: charBit(f), fold: byte(f), upper: up, alnum: isAlnum(r), letter: isLetter(r), space: isSpace(r)}
	}
	tab[0] = tab[' '] // NUL ends sahilm/fuzzy's view of a string: make it a space
	return tab
}()

// gramSet is a hashed set of the byte pairs and triples of a folded text,
// and of the first byte pair of each word. A term whose pairs and triples
// are not all in it cannot occur contiguously, which spares most substring
// searches in long fields; one whose first pair starts no word cannot occur
// at a word start.
type gramSet [32]uint64

// Salts keep the three kinds of entries apart in the set.
const (
	saltPair  = 0x9E3779B1
	saltTri   = 0x85EBCA77
	saltStart = 0xC2B2AE3D
)

func gramHash(salt, g uint32) uint32 { return g * salt >> 21 }

func pair(a, b byte) uint32 { return uint32(a)<<8 | uint32(b) }

func triple(a, b, c byte) uint32 { return uint32(a)<<16 | uint32(b)<<8 | uint32(c) }

func (g *gramSet) add(h uint32) { g[h/64] |= 1 << (h % 64) }

func (g *gramSet) has(h uint32) bool { return g[h/64]&(1<<(h%64)) != 0 }

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

// isUpper reports whether the rune at byte i of t.s was upper case.
func (t *text) isUpper(i int) bool {
	return t.upper != nil && i/64 < len(t.upper) && t.upper[i/64]&(1<<(i%64)) != 0
}

// original rebuilds the original-case text of t.
func (t *text) original() string {
	if t.upper == nil {
		return t.s
	}
	b := []byte(t.s)
	for w, word := range t.upper {
		for word != 0 {
			bit := bits.TrailingZeros64(word)
			word &= word - 1
			i := w*64 + bit
			if i >= len(b) {
				break
			}
			if b[i] < utf8.RuneSelf {
				b[i] -= 'a' - 'A'
				continue
			}
			r, size := utf8.DecodeRune(b[i:])
			utf8.EncodeRune(b[i:i+size], unicode.ToUpper(r))
		}
	}
	return string(b)
}

// isWordStart reports whether byte i of t.s starts a word: the text start,
// after a rune that is not a letter or digit, or a camel-case hump.
func (t *text) isWordStart(i int) bool {
	if i == 0 {
		return true
	}
	prev, size := utf8.DecodeLastRuneInString(t.s[:i])
	if !isAlnum(prev) {
		return true
	}
	return t.isUpper(i) && !t.isUpper(i-size) && isLetter(prev)
}

// foldRune maps r to its lower case when that is a same-length, reversible
// mapping (so the upper bitmap can restore it), and reports whether it did.
func foldRune(r rune) (rune, bool) {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A', true
		}
		return r, false
	}
	l := unicode.ToLower(r)
	if l != r && utf8.RuneLen(l) == utf8.RuneLen(r) && unicode.ToUpper(l) == r {
		return l, true
	}
	return r, false
}

// isExotic reports whether some rune in the simple case-fold orbit of the
// folded rune f folds to a different rune than f does. For all other runes,
// "equal after foldRune" and sahilm/fuzzy's equalFold agree.
func isExotic(f rune) bool {
	for m := unicode.SimpleFold(f); m != f; m = unicode.SimpleFold(m) {
		if g, _ := foldRune(m); g != f {
			return true
		}
	}
	return false
}

// charBit is the bit of a folded rune in a presence mask: one bit per ASCII
// letter and digit, the rest hashed into the remaining bits.
func charBit(r rune) uint64 {
	switch {
	case 'a' <= r && r <= 'z':
		return 1 << (r - 'a')
	case '0' <= r && r <= '9':
		return 1 << (26 + r - '0')
	case r >= utf8.RuneSelf:
		return 1 << (36 + r%16)
	default:
		return 1 << (52 + r%12)
	}
}

func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
