package search

import (
	"fmt"
	"slices"
	"testing"
	"time"
	"unsafe"
)

func TestAnEntryIsFourCacheLinesWithItsHotFieldsInTheFirst(t *testing.T) {
	var e entry
	if got := unsafe.Sizeof(e); got != 256 {
		t.Fatalf("an entry is %d bytes, want 256", got)
	}
	// Everything a remembered run is rated by without its text: the
	// filters' fields and the presence masks of the files and the prompt.
	hot := unsafe.Offsetof(e.prompt) + unsafe.Offsetof(e.prompt.starts) + unsafe.Sizeof(e.prompt.starts)
	if hot > 64 || unsafe.Offsetof(e.tool) >= 64 {
		t.Fatalf("the hot fields end at byte %d (tool at %d), past the first cache line", hot, unsafe.Offsetof(e.tool))
	}
}

func TestToolFilter(t *testing.T) {
	docs := []Doc{
		{ID: "old", Site: "chatgpt", State: "done", Created: day0, Prompt: "tide tables"},
		{ID: "web", Site: "chatgpt", State: "done", Tool: "web-search", Created: day0.Add(time.Hour), Prompt: "tide tables today"},
		{ID: "deep", Site: "chatgpt", State: "failed", Tool: "deep-research", Created: day0.Add(2 * time.Hour), Prompt: "tide science"},
		{ID: "claude", Site: "claude", State: "done", Created: day0.Add(3 * time.Hour), Prompt: "tide poem"},
	}
	idx := mustIndex(t, docs...)
	for _, tc := range []struct {
		name string
		q    Query
		want []string
	}{
		{"no tool filter keeps every run", Query{}, []string{"claude", "deep", "web", "old"}},
		{"a tool keeps the runs that asked for it", Query{Tool: "web-search"}, []string{"web"}},
		{"a tool compares without case", Query{Tool: "Deep-Research"}, []string{"deep"}},
		{"none keeps the runs that asked for no tool", Query{Tool: NoTool}, []string{"claude", "old"}},
		{"none compares without case", Query{Tool: "NONE"}, []string{"claude", "old"}},
		{"a tool no run used keeps none", Query{Tool: "image"}, []string{}},
		{"a tool and a site combine", Query{Tool: NoTool, Site: "chatgpt"}, []string{"old"}},
		{"a tool and a state combine", Query{Tool: "deep-research", State: "done"}, []string{}},
		{"a tool and a text combine", Query{Text: "tables", Tool: NoTool}, []string{"old"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := search(t, idx, tc.q)
			if got := ids(r); !slices.Equal(got, tc.want) || r.Total != len(tc.want) {
				t.Fatalf("hits = %v total %d, want %v", got, r.Total, tc.want)
			}
		})
	}
	t.Run("a hit names the tool its run asked for", func(t *testing.T) {
		tools := map[string]string{}
		for _, h := range search(t, idx, Query{}).Hits {
			tools[h.ID] = h.Tool
		}
		if want := map[string]string{"old": "", "web": "web-search", "deep": "deep-research", "claude": ""}; fmt.Sprint(tools) != fmt.Sprint(want) {
			t.Fatalf("tools %v, want %v", tools, want)
		}
	})
	t.Run("typing under one tool never reuses the results of another", func(t *testing.T) {
		for _, step := range []struct{ text, tool string }{
			{"tid", "web-search"}, {"tide", NoTool}, {"tide t", "web-search"}, {"tide ta", ""}, {"tide tab", NoTool},
		} {
			q := Query{Text: step.text, Tool: step.tool}
			sameResults(t, fmt.Sprintf("%q under tool %q", step.text, step.tool), search(t, idx, q), search(t, freshOf(idx), q))
		}
	})
	t.Run("an update moves a run to its new tool", func(t *testing.T) {
		idx := mustIndex(t, docs...)
		if err := idx.Update(Doc{ID: "old", Site: "chatgpt", State: "done", Tool: "image", Created: day0, Prompt: "tide tables"}); err != nil {
			t.Fatal(err)
		}
		if got := ids(search(t, idx, Query{Tool: "image"})); !slices.Equal(got, []string{"old"}) {
			t.Fatalf("image lists %v", got)
		}
		if got := ids(search(t, idx, Query{Tool: NoTool})); !slices.Equal(got, []string{"claude"}) {
			t.Fatalf("none lists %v", got)
		}
	})
}

func TestCompactionKeepsEachRunsTool(t *testing.T) {
	idx := New()
	tools := []string{"", "web-search", "image"}
	for i := 0; i < 3000; i++ {
		if err := idx.Add(Doc{ID: fmt.Sprint(i), Tool: tools[i%3], Created: day0.Add(time.Duration(i) * time.Minute), Prompt: "kiwi"}); err != nil {
			t.Fatal(err)
		}
	}
	before := idx.snap.Load().epoch
	for i := 0; i < 2000; i++ {
		if err := idx.Update(Doc{ID: fmt.Sprint(i), Tool: tools[i%3], Created: day0.Add(time.Duration(i) * time.Minute), Prompt: "plum"}); err != nil {
			t.Fatal(err)
		}
	}
	if idx.snap.Load().epoch == before {
		t.Fatal("the updates did not compact the index: the test proves nothing")
	}
	for _, tool := range []string{NoTool, "web-search", "image"} {
		if r := search(t, idx, Query{Tool: tool, Limit: MaxLimit}); r.Total != 1000 {
			t.Errorf("tool %q keeps %d runs after compaction, want 1000", tool, r.Total)
		}
	}
}
