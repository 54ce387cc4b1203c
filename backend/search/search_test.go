package search

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

var day0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func mustIndex(t *testing.T, docs ...Doc) *Index {
	t.Helper()
	idx := New()
	if err := idx.Add(docs...); err != nil {
		t.Fatalf("add: %v", err)
	}
	return idx
}

func search(t *testing.T, idx *Index, q Query) Results {
	t.Helper()
	r, err := idx.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	return r
}

func ids(r Results) []string {
	out := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		out[i] = h.ID
	}
	return out
}

func match(h Hit, f Field, file int) (Match, bool) {
	for _, m := range h.Matches {
		if m.Field == f && m.File == file {
			return m, true
		}
	}
	return Match{}, false
}

// highlighted returns the runes of text at positions.
func highlighted(text string, pos []int) string {
	r := []rune(text)
	var b strings.Builder
	for _, p := range pos {
		if p < 0 || p >= len(r) {
			return fmt.Sprintf("<position %d outside %d runes>", p, len(r))
		}
		b.WriteRune(r[p])
	}
	return b.String()
}

func TestRanking(t *testing.T) {
	filler := "Here is the plan. We change the handler and keep the tests green."
	cases := []struct {
		name  string
		query string
		docs  []Doc
		want  []string
	}{
		{
			name:  "a file name hit beats an answer-only hit",
			query: "ledger",
			docs: []Doc{
				{ID: "answer", Created: day0.Add(time.Hour), Prompt: "summarise the accounts", Answer: filler + " The ledger module is fine."},
				{ID: "file", Created: day0, Prompt: "summarise the accounts", Answer: filler, Files: []string{"ledger-api-v2.zip"}},
			},
			want: []string{"file", "answer"},
		},
		{
			name:  "a prompt hit beats an answer-only hit",
			query: "ledger",
			docs: []Doc{
				{ID: "answer", Created: day0.Add(time.Hour), Prompt: "summarise the accounts", Answer: filler + " The ledger module is fine."},
				{ID: "prompt", Created: day0, Prompt: "summarise the ledger accounts", Answer: filler},
			},
			want: []string{"prompt", "answer"},
		},
		{
			name:  "equal matches list the newest run first",
			query: "ledger",
			docs: []Doc{
				{ID: "old", Created: day0, Prompt: "fix the ledger export", Answer: filler},
				{ID: "new", Created: day0.Add(48 * time.Hour), Prompt: "fix the ledger export", Answer: filler},
				{ID: "mid", Created: day0.Add(24 * time.Hour), Prompt: "fix the ledger export", Answer: filler},
			},
			want: []string{"new", "mid", "old"},
		},
		{
			// Issue 19 point 10: letters strewn across a prompt no longer match.
			name:  "a subsequence strewn across a prompt does not match",
			query: "ledger",
			docs: []Doc{
				{ID: "scattered", Created: day0.Add(time.Hour), Prompt: "let every daily gauge report"},
				{ID: "exact", Created: day0, Prompt: "rebuild the ledger report"},
			},
			want: []string{"exact"},
		},
		{
			name:  "a typo finds the word, a spread subsequence does not match",
			query: "devtols",
			docs: []Doc{
				{ID: "scattered", Created: day0.Add(2 * time.Hour), Prompt: "deliver every vital tool list"},
				{ID: "typo", Created: day0, Prompt: "open the devtools panel"},
			},
			want: []string{"typo"},
		},
		{
			name:  "word starts across a prompt are not an acronym",
			query: "hello",
			docs: []Doc{
				{ID: "unrelated", Created: day0.Add(time.Hour), Prompt: "the help desk lost one log"},
				{ID: "hello", Created: day0, Prompt: "say hello to the team"},
			},
			want: []string{"hello"},
		},
		{
			name:  "word starts in a file name are an acronym",
			query: "fbz",
			docs: []Doc{
				{ID: "file", Created: day0, Prompt: "x", Files: []string{"fix-bug.zip"}},
				{ID: "prompt", Created: day0.Add(time.Hour), Prompt: "fix the bug in zip"},
			},
			want: []string{"file"},
		},
		{
			name:  "a word-start occurrence beats one inside a word",
			query: "port",
			docs: []Doc{
				{ID: "inside", Created: day0.Add(time.Hour), Prompt: "the airport guide"},
				{ID: "start", Created: day0, Prompt: "the port guide"},
			},
			want: []string{"start", "inside"},
		},
		{
			name:  "every word of the query must match some field",
			query: "claude ledger",
			docs: []Doc{
				{ID: "both", Site: "claude", Created: day0, Prompt: "fix the ledger"},
				{ID: "one", Site: "chatgpt", Created: day0.Add(time.Hour), Prompt: "fix the ledger"},
			},
			want: []string{"both"},
		},
		{
			name:  "the answer matches only a contiguous occurrence",
			query: "ledger",
			docs: []Doc{
				{ID: "scattered", Created: day0, Prompt: "x", Answer: "let every daily gauge report run"},
				{ID: "exact", Created: day0, Prompt: "x", Answer: "the ledger is balanced"},
			},
			want: []string{"exact"},
		},
		{
			name:  "a subsequence of a file name matches",
			query: "bapi2",
			docs: []Doc{
				{ID: "zip", Created: day0, Prompt: "x", Files: []string{"billing-api-v2.zip"}},
				{ID: "none", Created: day0, Prompt: "x", Files: []string{"notes.md"}},
			},
			want: []string{"zip"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			idx := mustIndex(t, tc.docs...)
			got := ids(search(t, idx, Query{Text: tc.query}))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("order = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPositions(t *testing.T) {
	cases := []struct {
		name   string
		doc    Doc
		query  string
		field  Field
		file   int
		want   string // the highlighted runes, in order
		source func(Doc, Hit) string
	}{
		{
			name:   "accented prompt text is highlighted by rune",
			doc:    Doc{Prompt: "Voilà: le café résumé du déploiement"},
			query:  "RÉSUMÉ",
			field:  FieldPrompt,
			want:   "résumé",
			source: func(d Doc, _ Hit) string { return d.Prompt },
		},
		{
			name:   "CJK prompt text is highlighted by rune",
			doc:    Doc{Prompt: "部署 东京 服务器 的 配置"},
			query:  "服务器",
			field:  FieldPrompt,
			want:   "服务器",
			source: func(d Doc, _ Hit) string { return d.Prompt },
		},
		{
			name:   "emoji before the match do not shift positions",
			doc:    Doc{Prompt: "🚀🔥 launch the rocket ✨ now"},
			query:  "rocket",
			field:  FieldPrompt,
			want:   "rocket",
			source: func(d Doc, _ Hit) string { return d.Prompt },
		},
		{
			name:   "an emoji can be searched and highlighted",
			doc:    Doc{Prompt: "ship it 🚢 today"},
			query:  "🚢",
			field:  FieldPrompt,
			want:   "🚢",
			source: func(d Doc, _ Hit) string { return d.Prompt },
		},
		{
			name:   "a fuzzy file name match highlights each matched rune",
			doc:    Doc{Prompt: "x", Files: []string{"notes.md", "Ünïcode-Bericht-v2.zip"}},
			query:  "übv2",
			field:  FieldFile,
			file:   1,
			want:   "ÜBv2",
			source: func(d Doc, _ Hit) string { return d.Files[1] },
		},
		{
			name:   "answer positions index the snippet",
			doc:    Doc{Prompt: "x", Answer: strings.Repeat("préambule ", 40) + "日本語 の 説明 🎉 déploiement terminé " + strings.Repeat("fin ", 40)},
			query:  "déploiement",
			field:  FieldAnswer,
			want:   "déploiement",
			source: func(_ Doc, h Hit) string { return h.Snippet },
		},
		{
			name:   "prompt positions index the hit's prompt, in its original case",
			doc:    Doc{Prompt: "Ünïcode: Deploy the Résumé SERVICE"},
			query:  "résumé serv",
			field:  FieldPrompt,
			want:   "RésuméSERV",
			source: func(_ Doc, h Hit) string { return h.Prompt },
		},
		{
			name:   "the site is highlighted",
			doc:    Doc{Site: "DeepSeek", Prompt: "x"},
			query:  "seek",
			field:  FieldSite,
			want:   "Seek",
			source: func(d Doc, _ Hit) string { return d.Site },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.doc.ID, tc.doc.Created = "d", day0
			idx := mustIndex(t, tc.doc)
			r := search(t, idx, Query{Text: tc.query})
			if len(r.Hits) != 1 {
				t.Fatalf("hits = %d, want 1", len(r.Hits))
			}
			m, ok := match(r.Hits[0], tc.field, tc.file)
			if !ok {
				t.Fatalf("no %s match in %+v", tc.field, r.Hits[0].Matches)
			}
			if got := highlighted(tc.source(tc.doc, r.Hits[0]), m.Positions); got != tc.want {
				t.Fatalf("highlighted %q (positions %v), want %q", got, m.Positions, tc.want)
			}
		})
	}
}

func TestHitPromptIsTheIndexedOpening(t *testing.T) {
	prompt := "Résumé: " + strings.Repeat("Ferry Keeps Every Run ", 20)
	idx := New(WithPromptBound(64))
	if err := idx.Add(Doc{ID: "d", Created: day0, Prompt: prompt}); err != nil {
		t.Fatal(err)
	}
	h := search(t, idx, Query{Text: "keeps"}).Hits[0]
	if len(h.Prompt) > 64 || !strings.HasPrefix(prompt, h.Prompt) || len(h.Prompt) < 60 {
		t.Fatalf("hit prompt %q: want the prompt's first 64 bytes or fewer, cut at a rune, in the original case", h.Prompt)
	}
	m, ok := match(h, FieldPrompt, 0)
	if !ok {
		t.Fatalf("no prompt match in %+v", h.Matches)
	}
	if got := highlighted(h.Prompt, m.Positions); got != "Keeps" {
		t.Fatalf("highlighted %q in the hit's prompt, want %q", got, "Keeps")
	}
}

func TestSnippet(t *testing.T) {
	answer := strings.Repeat("alpha beta gamma ", 30) + "the needle is here " + strings.Repeat("delta epsilon ", 30)
	idx := mustIndex(t, Doc{ID: "d", Created: day0, Prompt: "x", Answer: answer})
	t.Run("a snippet is cut around the first match and marked", func(t *testing.T) {
		h := search(t, idx, Query{Text: "needle"}).Hits[0]
		if !strings.Contains(h.Snippet, "the needle is here") || !strings.HasPrefix(h.Snippet, "…") || !strings.HasSuffix(h.Snippet, "…") {
			t.Fatalf("snippet = %q", h.Snippet)
		}
		if n := len([]rune(h.Snippet)); n > snippetRunes+2 {
			t.Fatalf("snippet has %d runes, want at most %d", n, snippetRunes+2)
		}
	})
	t.Run("without an answer match the snippet is the answer's opening", func(t *testing.T) {
		h := search(t, idx, Query{Text: "x"}).Hits[0]
		if !strings.HasPrefix(h.Snippet, "alpha beta gamma") {
			t.Fatalf("snippet = %q", h.Snippet)
		}
	})
	t.Run("white space runs in the answer are collapsed", func(t *testing.T) {
		idx := mustIndex(t, Doc{ID: "d", Created: day0, Answer: "func main() {\n\t\t\n    return\n}"})
		h := search(t, idx, Query{}).Hits[0]
		if h.Snippet != "func main() { return }" {
			t.Fatalf("snippet = %q", h.Snippet)
		}
	})
}

func TestFilters(t *testing.T) {
	docs := []Doc{
		{ID: "a", Site: "chatgpt", State: "done", Created: day0, Prompt: "deploy the gateway"},
		{ID: "b", Site: "claude", State: "failed", Created: day0.Add(24 * time.Hour), Prompt: "deploy the gateway"},
		{ID: "c", Site: "claude", State: "done", Created: day0.Add(48 * time.Hour), Prompt: "deploy the gateway"},
		{ID: "d", Site: "Gemini", State: "done", Created: day0.Add(72 * time.Hour), Prompt: "write docs"},
	}
	idx := mustIndex(t, docs...)
	cases := []struct {
		name  string
		q     Query
		want  []string
		total int
	}{
		{"site narrows to that site", Query{Text: "deploy", Site: "claude"}, []string{"c", "b"}, 2},
		{"site compares without case", Query{Text: "docs", Site: "gemini"}, []string{"d"}, 1},
		{"state narrows to that state", Query{Text: "deploy", State: "done"}, []string{"c", "a"}, 2},
		{"site and state combine", Query{Text: "deploy", Site: "claude", State: "done"}, []string{"c"}, 1},
		{"several states keep a run in any of them", Query{Text: "deploy", States: []string{"failed", "DONE"}}, []string{"c", "b", "a"}, 3},
		{"several states and a site combine", Query{States: []string{"failed", "stale"}, Site: "claude"}, []string{"b"}, 1},
		{"from is inclusive and to exclusive", Query{Text: "deploy", From: day0.Add(24 * time.Hour), To: day0.Add(48 * time.Hour)}, []string{"b"}, 1},
		{"limit caps the hits but not the total", Query{Text: "deploy", Limit: 1}, []string{"c"}, 3},
		{"an empty text lists newest first", Query{}, []string{"d", "c", "b", "a"}, 4},
		{"an empty text honours the filters", Query{State: "done", Limit: 2}, []string{"d", "c"}, 3},
		{"an unknown site matches nothing", Query{Text: "deploy", Site: "grok"}, []string{}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := search(t, idx, tc.q)
			if got := ids(r); !slices.Equal(got, tc.want) || r.Total != tc.total {
				t.Fatalf("hits = %v total %d, want %v total %d", got, r.Total, tc.want, tc.total)
			}
		})
	}
}

func TestBadQueries(t *testing.T) {
	idx := mustIndex(t, Doc{ID: "a", Created: day0, Prompt: "x"})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		q    Query
		code errs.Code
	}{
		{"a negative limit is refused", context.Background(), Query{Limit: -1}, errs.BadInput},
		{"a limit above the maximum is refused", context.Background(), Query{Limit: MaxLimit + 1}, errs.BadInput},
		{"a range that ends before it starts is refused", context.Background(), Query{From: day0, To: day0.Add(-time.Hour)}, errs.BadInput},
		{"too many words are refused", context.Background(), Query{Text: strings.Repeat("w ", maxTerms+1)}, errs.BadInput},
		{"a cancelled context is reported as cancelled", cancelled, Query{Text: "x"}, errs.Cancelled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := idx.Search(tc.ctx, tc.q)
			if errs.CodeOf(err) != tc.code {
				t.Fatalf("err = %v, want code %s", err, tc.code)
			}
		})
	}
}

func TestIncremental(t *testing.T) {
	idx := mustIndex(t,
		Doc{ID: "a", Created: day0, Prompt: "tune the postgres pool"},
		Doc{ID: "b", Created: day0.Add(time.Hour), Prompt: "write the kafka consumer"},
	)
	t.Run("an added run is found by the next search", func(t *testing.T) {
		if err := idx.Add(Doc{ID: "c", Created: day0.Add(2 * time.Hour), Prompt: "postgres vacuum settings"}); err != nil {
			t.Fatal(err)
		}
		if got := ids(search(t, idx, Query{Text: "postgres"})); !slices.Equal(got, []string{"c", "a"}) {
			t.Fatalf("hits = %v", got)
		}
	})
	t.Run("an updated run is found by its new text only", func(t *testing.T) {
		if err := idx.Update(Doc{ID: "a", Created: day0, Prompt: "tune the redis pool"}); err != nil {
			t.Fatal(err)
		}
		if got := ids(search(t, idx, Query{Text: "postgres"})); !slices.Equal(got, []string{"c"}) {
			t.Fatalf("postgres hits = %v", got)
		}
		if got := ids(search(t, idx, Query{Text: "redis"})); !slices.Equal(got, []string{"a"}) {
			t.Fatalf("redis hits = %v", got)
		}
	})
	t.Run("a removed run is not found", func(t *testing.T) {
		if err := idx.Remove("c"); err != nil {
			t.Fatal(err)
		}
		if got := ids(search(t, idx, Query{Text: "postgres"})); len(got) != 0 {
			t.Fatalf("hits = %v", got)
		}
		if idx.Len() != 2 {
			t.Fatalf("len = %d, want 2", idx.Len())
		}
	})
	t.Run("bad changes are refused with their codes", func(t *testing.T) {
		for _, c := range []struct {
			err  error
			code errs.Code
		}{
			{idx.Add(Doc{ID: "a"}), errs.BadInput},
			{idx.Add(Doc{}), errs.BadInput},
			{idx.Add(Doc{ID: "x"}, Doc{ID: "x"}), errs.BadInput},
			{idx.Update(Doc{ID: "nope"}), errs.SessionNotFound},
			{idx.Remove("nope"), errs.SessionNotFound},
		} {
			if errs.CodeOf(c.err) != c.code {
				t.Errorf("err = %v, want %s", c.err, c.code)
			}
		}
		if idx.Len() != 2 {
			t.Fatalf("a refused Add changed the index: len %d", idx.Len())
		}
	})
}

func TestCompaction(t *testing.T) {
	idx := New()
	for i := 0; i < 3000; i++ {
		if err := idx.Add(Doc{ID: fmt.Sprint(i), Created: day0.Add(time.Duration(i) * time.Minute), Prompt: "kiwi"}); err != nil {
			t.Fatal(err)
		}
	}
	before := idx.snap.Load().epoch
	for i := 0; i < 2000; i++ {
		if err := idx.Update(Doc{ID: fmt.Sprint(i), Created: day0.Add(time.Duration(i) * time.Minute), Prompt: "plum"}); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("updates renumber the runs once many are dead", func(t *testing.T) {
		if s := idx.snap.Load(); s.epoch == before || s.n >= 5000 {
			t.Fatalf("epoch %d (was %d), %d slots: no compaction", s.epoch, before, s.n)
		}
	})
	t.Run("after compaction every run is found once with its latest text", func(t *testing.T) {
		plum := search(t, idx, Query{Text: "plum", Limit: MaxLimit})
		kiwi := search(t, idx, Query{Text: "kiwi", Limit: MaxLimit})
		if plum.Total != 2000 || kiwi.Total != 1000 {
			t.Fatalf("totals plum %d kiwi %d, want 2000 and 1000", plum.Total, kiwi.Total)
		}
		seen := map[string]bool{}
		for _, h := range plum.Hits {
			if seen[h.ID] {
				t.Fatalf("run %s listed twice", h.ID)
			}
			seen[h.ID] = true
		}
	})
}
