package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// freshOf returns an index that shares idx's runs but remembers no earlier
// search, so its answer is that of a search from scratch.
func freshOf(idx *Index) *Index {
	fresh := New()
	fresh.cfg = idx.cfg
	fresh.snap.Store(idx.snap.Load())
	return fresh
}

// propertyDocs mixes generated history with runs of odd text (case-fold
// oddities, CJK, emoji), so that the byte-level shortcuts of the typing
// path meet the runes that make them unsound.
func propertyDocs(r *rand.Rand) []Doc {
	docs := genDocs(1500)
	for i := 0; i < 100; i++ {
		docs = append(docs, Doc{
			ID:      fmt.Sprintf("odd-%03d", i),
			Site:    pick(r, genSites),
			Model:   randText(r, 1+r.IntN(8)),
			Created: day0.Add(time.Duration(i) * time.Minute),
			Prompt:  randText(r, 5+r.IntN(60)) + " " + pick(r, genThings),
			Answer:  strings.Repeat(randText(r, 20)+" "+pick(r, genTech)+" ", 1+r.IntN(8)),
			Files:   []string{randText(r, 1+r.IntN(12)) + ".zip"},
		})
	}
	return docs
}

// keystroke edits q the way a user does: types a letter of a known word,
// a random rune, a space, deletes the last rune, or replaces the query.
func keystroke(r *rand.Rand, q string) string {
	words := append(append(append([]string{}, genWords...), genTech...), genProjects...)
	switch n := r.IntN(20); {
	case n < 11:
		// Continue the last word as some vocabulary word would.
		last := q[strings.LastIndexByte(q, ' ')+1:]
		for _, w := range r.Perm(len(words)) {
			word := strings.ToLower(words[w])
			if len(word) > len(last) && strings.HasPrefix(word, strings.ToLower(last)) {
				return q + word[len(last):len(last)+1]
			}
		}
		return q + string(rune('a'+r.IntN(26)))
	case n < 13:
		return q + string(alphabet[r.IntN(len(alphabet))])
	case n < 15:
		return q + " "
	case n < 19:
		rs := []rune(q)
		if len(rs) == 0 {
			return q
		}
		return string(rs[:len(rs)-1])
	default:
		return strings.ToLower(pick(r, words))[:1]
	}
}

func TestTypedSearchEqualsFreshSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 6))
	idx := mustIndex(t, propertyDocs(r)...)
	limits := []int{1, 5, 20, 0, 200}
	sites := []string{"", "", "", "chatgpt", "claude"}
	extended, fellBack := 0, 0
	for session := 0; session < 16; session++ {
		idx.cache.reset()
		limit, site := limits[session%len(limits)], sites[session%len(sites)]
		q, prev := "", ""
		for step := 0; step < 22; step++ {
			q = keystroke(r, q)
			terms, err := parseTerms(q)
			if err != nil || len(terms) == 0 {
				continue
			}
			prevTerms, _ := parseTerms(prev)
			key := filterKey{site: site, from: math.MinInt64, to: math.MaxInt64}
			used := idx.cache.lookup(key, idx.snap.Load().epoch, idx.snap.Load().n, terms) != nil
			want := len(prevTerms) > 0 && extends(terms, prevTerms)
			switch {
			case want && !used:
				t.Fatalf("%q after %q: the keystroke extends the last search but its results were not reused", q, prev)
			case !want && used:
				t.Fatalf("%q after %q: a search that does not extend the last one reused its results", q, prev)
			case used:
				extended++
			default:
				fellBack++
			}
			query := Query{Text: q, Site: site, Limit: limit}
			typed := search(t, idx, query)
			sameResults(t, fmt.Sprintf("%q after %q (limit %d, site %q)", q, prev, limit, site), typed, search(t, freshOf(idx), query))
			prev = q
		}
	}
	// The walk must have exercised both paths, or it proves nothing.
	t.Logf("%d keystrokes narrowed the last results, %d searched from scratch", extended, fellBack)
	if extended < 100 || fellBack < 30 {
		t.Fatalf("only %d keystrokes reused results and %d fell back to a full search", extended, fellBack)
	}
}

func TestTypingFallsBack(t *testing.T) {
	docs := genDocs(2000)
	cases := []struct {
		name  string
		steps []string
	}{
		{"a backspace searches from scratch", []string{"kuber", "kube", "kub"}},
		{"a changed earlier word searches from scratch", []string{"fix login", "fax login"}},
		{"a deleted word searches from scratch", []string{"retry logic", "retry"}},
		{"a replaced query searches from scratch", []string{"postgres", "react"}},
		{"a term grown after a backspace narrows again", []string{"webso", "webs", "websoc", "websock"}},
		{"a word added after a space narrows", []string{"csv", "csv ", "csv e", "csv ex"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			idx := mustIndex(t, docs...)
			for i, q := range tc.steps {
				terms, _ := parseTerms(q)
				used := idx.cache.lookup(filterKey{from: math.MinInt64, to: math.MaxInt64}, idx.snap.Load().epoch, idx.snap.Load().n, terms) != nil
				if i > 0 {
					prevTerms, _ := parseTerms(tc.steps[i-1])
					if want := extends(terms, prevTerms); used != want {
						t.Fatalf("%q after %q: reused the last results = %v, want %v", q, tc.steps[i-1], used, want)
					}
				}
				sameResults(t, fmt.Sprintf("%q", q), search(t, idx, Query{Text: q}), search(t, freshOf(idx), Query{Text: q}))
			}
		})
	}
}

// A prompt bound above 64 KiB puts matches past what a remembered run's
// uint16 offsets hold: typing there must still give a fresh search's
// results.
func TestTypingPastSixtyFourKiB(t *testing.T) {
	idx := New(WithPromptBound(1 << 17))
	docs := []Doc{
		{ID: "far", Created: day0, Prompt: strings.Repeat("x ", 33_000) + "a needle in the hay"},
		{ID: "near", Created: day0.Add(time.Minute), Prompt: "needle work " + strings.Repeat("y ", 33_000) + "hay"},
		{ID: "none", Created: day0.Add(2 * time.Minute), Prompt: strings.Repeat("z ", 34_000)},
	}
	if err := idx.Add(docs...); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"n", "ne", "nee", "need", "needl", "needle", "needle h", "needle ha", "needle hay"} {
		sameResults(t, fmt.Sprintf("%q", q), search(t, idx, Query{Text: q}), search(t, freshOf(idx), Query{Text: q}))
	}
	if got := ids(search(t, idx, Query{Text: "needle hay"})); len(got) != 2 {
		t.Fatalf("needle hay found %v, want the two runs that hold both words", got)
	}

	// The match of "neeb" ends just past 65 535 bytes: an offset that
	// wrapped would let the "c" at the very start match "neebc".
	// Runs that outrank it keep it below the shortlist, where only its
	// match is checked, from what the remembered run holds.
	edge := New(WithPromptBound(1 << 17))
	prompt := "c" + strings.Repeat(" ", 65530) + "nee" + "ab" + strings.Repeat("z", 40)
	docs = []Doc{{ID: "edge", Created: day0, Prompt: prompt}}
	for i := range 80 {
		docs = append(docs, Doc{ID: fmt.Sprintf("top-%02d", i), Created: day0.Add(time.Duration(i+1) * time.Minute), Prompt: "neebc neebc", Files: []string{"neebc.zip"}})
	}
	if err := edge.Add(docs...); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"n", "ne", "nee", "neeb", "neebc"} {
		sameResults(t, fmt.Sprintf("%q at the 64 KiB edge", q), search(t, edge, Query{Text: q}), search(t, freshOf(edge), Query{Text: q}))
	}
	edge.cache.reset()
	for _, q := range []string{"n", "ne", "nee", "neeb"} {
		search(t, edge, Query{Text: q, Limit: 1})
	}
	if r := search(t, edge, Query{Text: "neebc", Limit: 1}); r.Total != 80 {
		t.Fatalf("typed neebc matched %d runs, want the 80 that hold it: no c follows neeb in the far prompt", r.Total)
	}
}
