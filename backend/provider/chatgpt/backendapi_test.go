package chatgpt

import (
	"encoding/json"
	"testing"
)

func TestConversationAnswer(t *testing.T) {
	const doc = `{"current_node":"a2","mapping":{
	  "root":{"parent":"","message":null},
	  "u1":{"parent":"root","message":{"id":"u1","author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]},"status":"finished_successfully"}},
	  "c1":{"parent":"u1","message":{"id":"c1","author":{"role":"assistant"},"content":{"content_type":"text","parts":["Let me look."]},"channel":"commentary","status":"finished_successfully"}},
	  "a1":{"parent":"c1","message":{"id":"a1","author":{"role":"assistant"},"content":{"content_type":"text","parts":["The answer\ue200cite\ue202turn0search2\ue201 is ", {"asset":"x"}, "42."]},"channel":"final","status":"finished_successfully","metadata":{"model_slug":"gpt-5-6-thinking"}}},
	  "a2":{"parent":"a1","message":{"id":"a2","author":{"role":"tool"},"content":{"content_type":"execution_output","text":"x"},"status":"finished_successfully"}}
	}}`
	var c conversation
	if err := json.Unmarshal([]byte(doc), &c); err != nil {
		t.Fatal(err)
	}
	m, ok := c.answer()
	if !ok || m.ID != "a1" {
		t.Fatalf("answer() = %+v, %v; want a1 finished", m, ok)
	}
	if got := m.text(); got != "The answer is 42." {
		t.Fatalf("text() = %q: citations and non-text parts must go", got)
	}
	if m.slug() != "gpt-5-6-thinking" {
		t.Fatalf("slug() = %q", m.slug())
	}

	t.Run("a citation its content_references name becomes a link", func(t *testing.T) {
		a := *c.Mapping["a1"].Message
		a.Metadata = map[string]any{"content_references": []any{map[string]any{
			"matched_text": "\ue200cite\ue202turn0search2\ue201", "type": "grouped_webpages",
			"items": []any{map[string]any{"title": "The answer", "url": "https://answers.example/42?utm_source=chatgpt.com", "attribution": "Answers"}},
		}}}
		if got, want := a.text(), "The answer ([Answers](https://answers.example/42)) is 42."; got != want {
			t.Fatalf("text() = %q, want %q", got, want)
		}
	})
	t.Run("an unfinished answer is not accepted", func(t *testing.T) {
		c.Mapping["a1"].Message.Status = "in_progress"
		if _, ok := c.answer(); ok {
			t.Fatal("an in-progress message was accepted")
		}
	})
	t.Run("a cycle in the mapping ends the walk", func(t *testing.T) {
		loop := conversation{CurrentNode: "x", Mapping: map[string]node{"x": {Parent: "y"}, "y": {Parent: "x"}}}
		if _, ok := loop.answer(); ok {
			t.Fatal("found an answer in a cycle without messages")
		}
	})
}

func TestStripCitations(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"text without sentinels is unchanged", "plain", "plain"},
		{"a closed span is removed whole", "a\ue200cite\ue202turn0\ue201b", "ab"},
		{"an unclosed span is removed to the end", "a\ue200cite", "a"},
		{"stray separators are dropped", "a\ue203b", "ab"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := stripCitations(tc.in); got != tc.want {
				t.Fatalf("stripCitations(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
