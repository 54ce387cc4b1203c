package search

import "math"

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

func (b tiers) set(f int, t uint8) tiers { return b&^(3<<(2*f)) | tiers(t)<<(2*f) }

// unknown is "no earlier knowledge": every field may match at every tier.
const unknown tiers = 0x3ff

// Flags on a cached run's tiers. boundOnly: the tiers only bound the true
// ones (see matchOnly). fixedBound: the run's fixed score only bounds the
// true one (see extendOnly), so a full rating starts over.
const (
	boundOnly  tiers = 1 << 15
	fixedBound tiers = 1 << 14
)

// maxTermPoints is the most one term can score in stage one.
const maxTermPoints = (2 + 2 + 4 + 3 + 1) * 6

// The fixed score of a cand must fit its int16.
var _ [math.MaxInt16 - maxTerms*maxTermPoints]struct{}

// matches reports whether some field matched.
func (b tiers) matches() bool { return b&^(boundOnly|fixedBound) != 0 }

// points is the structural score of b: a table lookup, as every remembered
// run is weighed against the shortlist on every keystroke.
func (b tiers) points() int32 { return pointsOf[b&unknown] }

var pointsOf = func() (tab [unknown + 1]int32) {
	for b := range tab {
		for f := 0; f < numFields; f++ {
			tab[b] += int32(fieldWeight[f]) * tierPoints[tiers(b).tier(f)]
		}
	}
	return tab
}()

// cand is a run that matched all terms of a query: the structural score of
// all terms but the last, and the last term's tiers, which bound those of a
// longer last term.
//
// A typing keystroke remembers one cand per matching run (up to 100 000),
// so it is kept at 12 bytes: fixed fits an int16 because a term scores at
// most maxTermPoints and a query has at most maxTerms terms.
type cand struct {
	slot  int32
	fixed int16
	last  tiers
	pend  uint16 // where the last term's match in the prompt ends, see promptTier
	// apos is at most the byte offset of the last term's first contiguous
	// occurrence in the answer (0 when nothing is known). It stays true as
	// the term grows: an occurrence of the longer term is one of its
	// prefix, so matchOnly looks there first and searches only after it.
	apos uint16
	// win holds the prompt's bytes from pend on, or the answer's after the
	// occurrence at apos (see window).
	win window
}
