package search

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sahilm/fuzzy"
)

// alphabet mixes ASCII, accents, case-fold oddities (Kelvin sign, long s,
// dotted I, final sigma), CJK and emoji.
var alphabet = []rune("abcdeksSKAZ -_./éÉàÀüÜøØσΣςſKİıßẞ東京日本🚀🎉")

func randText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func TestMatchingAgreesWithSahilmFuzzy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		field := randText(r, 1+r.IntN(40))
		pattern := strings.TrimSpace(randText(r, 1+r.IntN(4)))
		terms, err := parseTerms(pattern)
		if err != nil || len(terms) != 1 {
			continue
		}
		tm := &terms[0]
		prepared := prepare(field, 1<<10, false, i%2 == 0)
		want := len(fuzzy.Find(tm.s, []string{field})) == 1
		got := tm.tier(&prepared, tierWord, true, false, 0) != tierNone
		if got != want {
			t.Fatalf("term %q on %q: index says match=%v, sahilm/fuzzy says %v", tm.s, field, got, want)
		}
		quick := tm.tier(&prepared, tierWord, true, true, 0)
		if (quick != tierNone) != want {
			t.Fatalf("term %q on %q: quick tier %d, sahilm/fuzzy match %v", tm.s, field, quick, want)
		}
		if prompt, _ := tm.promptTier(&prepared, tierWord, 0, 0, unknownEnd); (prompt != tierNone) != want {
			t.Fatalf("term %q on %q: prompt tier %d, sahilm/fuzzy match %v", tm.s, field, prompt, want)
		}
		if exact := tm.tier(&prepared, tierWord, false, false, 0) != tierNone; exact != containsFold(field, tm.runes) {
			t.Fatalf("term %q on %q: contiguous=%v", tm.s, field, exact)
		}
	}
}

// containsFold is the reference for contiguous case-insensitive matching.
func containsFold(s string, p []rune) bool {
	rs := []rune(s)
	for i := 0; i+len(p) <= len(rs); i++ {
		k := 0
		for k < len(p) && equalFold(rs[i+k], p[k]) {
			k++
		}
		if k == len(p) {
			return true
		}
	}
	return false
}

func TestPrepare(t *testing.T) {
	cases := []struct {
		name     string
		raw      string
		bound    int
		collapse bool
		want     string // original() of the prepared text
	}{
		{"mixed case ASCII comes back as written", "Fix the ReactRouter API", 100, false, "Fix the ReactRouter API"},
		{"accents, CJK and emoji come back as written", "Café ÉTÉ 東京 🚀 Ünïcode", 100, false, "Café ÉTÉ 東京 🚀 Ünïcode"},
		{"case-fold oddities come back as written", "K ſ İ ẞ ς Σ", 100, false, "K ſ İ ẞ ς Σ"},
		{"the bound cuts at a rune boundary", "ab東京", 4, false, "ab"},
		{"collapsing joins white space runs", "  a \n\t b  \u00a0 c ", 100, true, "a b c "},
		{"NUL and invalid bytes become one rune each", "a\x00b\xffc", 100, false, "a b\ufffdc"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := prepare(tc.raw, tc.bound, tc.collapse, true)
			if got := p.original(); got != tc.want {
				t.Fatalf("original() = %q, want %q", got, tc.want)
			}
			if len(p.s) > tc.bound {
				t.Fatalf("prepared %d bytes over the bound %d", len(p.s), tc.bound)
			}
			if got, want := len([]rune(p.s)), len([]rune(tc.want)); got != want {
				t.Fatalf("folded text has %d runes, original %d", got, want)
			}
		})
	}
}
