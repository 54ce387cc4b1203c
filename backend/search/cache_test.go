package search

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
)

// sameResults fails when two result sets differ in order, score, matches
// or total.
func sameResults(t *testing.T, what string, got, want Results) {
	t.Helper()
	if got.Total != want.Total || len(got.Hits) != len(want.Hits) {
		t.Fatalf("%s: total %d with %d hits, want total %d with %d hits", what, got.Total, len(got.Hits), want.Total, len(want.Hits))
	}
	for i := range got.Hits {
		g, w := got.Hits[i], want.Hits[i]
		if g.ID != w.ID || g.Score != w.Score || fmt.Sprint(g.Matches) != fmt.Sprint(w.Matches) || g.Snippet != w.Snippet {
			t.Fatalf("%s: hit %d = %s (score %d), want %s (score %d)", what, i, g.ID, g.Score, w.ID, w.Score)
		}
	}
}

func TestTypingCache(t *testing.T) {
	docs := genDocs(3000)
	t.Run("every keystroke gives the results of a fresh search", func(t *testing.T) {
		idx := mustIndex(t, docs...)
		for _, q := range []string{"postgres migration", "api v2 zip", "react", "fix login form", "claude gateway worker"} {
			idx.cache.reset()
			for i := 1; i <= len(q); i++ {
				if i > 1 {
					terms, _ := parseTerms(q[:i])
					key := filterKey{from: math.MinInt64, to: math.MaxInt64}
					if idx.cache.lookup(key, idx.snap.Load().epoch, idx.snap.Load().n, terms) == nil {
						t.Fatalf("%q: the keystroke does not narrow the previous results", q[:i])
					}
				}
				typed := search(t, idx, Query{Text: q[:i]})
				fresh := New()
				fresh.cfg = idx.cfg
				fresh.snap.Store(idx.snap.Load())
				sameResults(t, fmt.Sprintf("%q", q[:i]), typed, search(t, fresh, Query{Text: q[:i]}))
			}
		}
	})
	t.Run("a run added between keystrokes is found", func(t *testing.T) {
		idx := mustIndex(t, docs...)
		search(t, idx, Query{Text: "zebr"})
		if err := idx.Add(Doc{ID: "new", Created: day0, Prompt: "the zebra crossing"}); err != nil {
			t.Fatal(err)
		}
		if got := ids(search(t, idx, Query{Text: "zebra"})); !slices.Contains(got, "new") {
			t.Fatalf("hits %v lack the added run", got)
		}
	})
	t.Run("a run removed between keystrokes is not returned", func(t *testing.T) {
		idx := mustIndex(t, docs...)
		before := search(t, idx, Query{Text: "kubernete", Limit: MaxLimit})
		gone := before.Hits[0].ID
		if err := idx.Remove(gone); err != nil {
			t.Fatal(err)
		}
		after := search(t, idx, Query{Text: "kubernetes", Limit: MaxLimit})
		if slices.Contains(ids(after), gone) {
			t.Fatalf("removed run %s still listed", gone)
		}
		idx.cache.reset()
		sameResults(t, "after remove", after, search(t, idx, Query{Text: "kubernetes", Limit: MaxLimit}))
	})
	t.Run("a run updated between keystrokes is found by its new text only", func(t *testing.T) {
		idx := mustIndex(t,
			Doc{ID: "a", Created: day0, Prompt: "quokka habitat"},
			Doc{ID: "b", Created: day0, Prompt: "plain text"},
		)
		search(t, idx, Query{Text: "quok"})
		if err := idx.Update(Doc{ID: "a", Created: day0, Prompt: "plain again"}); err != nil {
			t.Fatal(err)
		}
		if err := idx.Update(Doc{ID: "b", Created: day0, Prompt: "quokka island"}); err != nil {
			t.Fatal(err)
		}
		if got := ids(search(t, idx, Query{Text: "quokka"})); !slices.Equal(got, []string{"b"}) {
			t.Fatalf("hits = %v, want [b]", got)
		}
	})
	t.Run("a cache entry is not used across filters", func(t *testing.T) {
		idx := mustIndex(t,
			Doc{ID: "a", Site: "claude", Created: day0, Prompt: "walrus"},
			Doc{ID: "b", Site: "grok", Created: day0, Prompt: "walrus"},
		)
		search(t, idx, Query{Text: "wal", Site: "claude"})
		if got := ids(search(t, idx, Query{Text: "walr", Site: "grok"})); !slices.Equal(got, []string{"b"}) {
			t.Fatalf("hits = %v, want [b]", got)
		}
		if got := ids(search(t, idx, Query{Text: "walru", From: day0.Add(time.Hour)})); len(got) != 0 {
			t.Fatalf("hits = %v, want none", got)
		}
	})
	t.Run("a cache entry is not used after compaction renumbered the runs", func(t *testing.T) {
		idx := New()
		for i := 0; i < 2000; i++ {
			if err := idx.Add(Doc{ID: fmt.Sprint(i), Created: day0, Prompt: "ibis"}); err != nil {
				t.Fatal(err)
			}
		}
		search(t, idx, Query{Text: "ibi"})
		epoch := idx.snap.Load().epoch
		for i := 0; i < 1500; i++ {
			if err := idx.Update(Doc{ID: fmt.Sprint(i), Created: day0, Prompt: "heron"}); err != nil {
				t.Fatal(err)
			}
		}
		if idx.snap.Load().epoch == epoch {
			t.Fatal("no compaction happened")
		}
		if r := search(t, idx, Query{Text: "ibis"}); r.Total != 500 {
			t.Fatalf("total = %d, want 500", r.Total)
		}
	})
}
