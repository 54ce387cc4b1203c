package provider

import (
	"reflect"
	"testing"

	"github.com/ferrydesk/ferry/backend/site"
)

func TestCodeBlocks(t *testing.T) {
	cases := []struct {
		name string
		md   string
		want []CodeBlock
	}{
		{"text without fences has no blocks", "just text\n\nmore", nil},
		{"a fenced block keeps its language and lines", "intro\n\n```python\nprint(1)\n\nprint(2)\n```\nafter", []CodeBlock{{Language: "python", Code: "print(1)\n\nprint(2)"}}},
		{"two blocks come in order", "```go\na\n```\n```\nb\n```", []CodeBlock{{Language: "go", Code: "a"}, {Language: "", Code: "b"}}},
		{"a tilde fence works and ignores info after the language", "~~~bash title=x\nls\n~~~", []CodeBlock{{Language: "bash", Code: "ls"}}},
		{"an unclosed fence runs to the end", "```js\nlet a\nlet b", []CodeBlock{{Language: "js", Code: "let a\nlet b"}}},
		{"a backtick line inside a tilde block is code", "~~~\n```\n~~~", []CodeBlock{{Language: "", Code: "```"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := CodeBlocks(tc.md); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("CodeBlocks = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestContentOf(t *testing.T) {
	c := ContentOf("héllo", "stream")
	if c.Bytes != 6 || c.Runes != 5 || c.Source != "stream" || len(c.SHA256) != 64 {
		t.Fatalf("ContentOf = %+v", c)
	}
	if ContentOf("a", "").SHA256 != "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb" {
		t.Fatal("sha256 of \"a\" is wrong")
	}
}

func TestProves(t *testing.T) {
	thinking := site.Model{Alias: "thinking", Proof: []string{"thinking"}}
	cases := []struct {
		name string
		m    site.Model
		p    ModelProof
		want bool
	}{
		{"a slug containing the proof proves the model", thinking, ModelProof{Slug: "gpt-5-6-thinking"}, true},
		{"the DOM slug alone proves it too", thinking, ModelProof{DOMSlug: "GPT-5-6-Thinking"}, true},
		{"another model does not", thinking, ModelProof{Slug: "gpt-5-2", DOMSlug: "gpt-5-2"}, false},
		{"an alias without proof is proven by any named model", site.Model{Alias: "default"}, ModelProof{Slug: "gpt-5-2"}, true},
		{"no named model proves nothing", site.Model{Alias: "default"}, ModelProof{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := proves(tc.m, tc.p); got != tc.want {
				t.Fatalf("proves = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDisagree(t *testing.T) {
	s := site.Site{ID: "x", Name: "X"}
	cases := []struct {
		name         string
		stream, page string
		fail         bool
	}{
		{"equal texts agree", "Hello world.", "Hello  world.", false},
		{"a page that strictly extends the stream means lost text", "Here’s", "Here’s what I found", true},
		{"rendered Markdown that differs is not a disagreement", "```go\nx\n```", "go\nCopy code\nx", false},
		{"a page shorter than the stream is not a disagreement", "Hello world", "Hello", false},
		{"an empty page is not a disagreement", "Hello", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := disagree(s, tc.stream, tc.page)
			if (err != nil) != tc.fail {
				t.Fatalf("disagree = %v, want failure %v", err, tc.fail)
			}
		})
	}
}
