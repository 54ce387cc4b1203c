package chatgpt

import (
	"encoding/json"
	"testing"
)

func TestConversationIDOfReadsTheAddress(t *testing.T) {
	cases := []struct{ name, url, want string }{
		{"a conversation address names its id", "https://chatgpt.com/c/6a1f-22", "6a1f-22"},
		{"a project's conversation names its id", "https://chatgpt.com/g/g-p-abc/c/6a1f-22?model=x", "6a1f-22"},
		{"the start page names none", "https://chatgpt.com/", ""},
		{"a bare /c/ names none", "https://chatgpt.com/c/", ""},
		{"a new chat's transient WEB: address names none", "https://chatgpt.com/c/WEB:3f2a9c1e-7b1d-4c55-9a0e-1d2f3a4b5c6d", ""},
		{"a new chat's transient local address names none", "https://chatgpt.com/c/local-chatgpt%3A3f2a9c1e7b1d", ""},
		{"the id ends at a slash", "https://chatgpt.com/c/6a1f-22/", "6a1f-22"},
		{"an address that does not parse names none", "://", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := conversationIDOf(tc.url); got != tc.want {
				t.Fatalf("conversationIDOf(%q) = %q, want %q", tc.url, got, tc.want)
			}
		})
	}
}

// refsJSON are content_references in the site's shape: a one-item span
// with the site's alt, a span citing two items, a hidden marker, a
// grouped_webpages with no items, a sources footnote, and hostile items.
const refsJSON = `[
 {"matched_text":"\ue200cite\ue202turn0search0\ue201","start_idx":10,"end_idx":31,"type":"grouped_webpages","status":"done","style":null,
  "alt":"([OpenAI Help Center](https://help.openai.com/en/articles/1?utm_source=chatgpt.com))","prompt_text":null,"refs":[],"safe_urls":["https://help.openai.com/en/articles/1?utm_source=chatgpt.com"],
  "items":[{"title":"Using web search","url":"https://help.openai.com/en/articles/1?utm_source=chatgpt.com","attribution":"OpenAI Help Center","pub_date":null,"snippet":"…","supporting_websites":[],"refs":[{"turn_index":0,"ref_type":"search","ref_index":0}]}]},
 {"matched_text":"\ue200cite\ue202turn0search1\ue202turn0search2\ue201","type":"grouped_webpages","alt":null,"status":"done",
  "items":[{"title":"Harbour news","url":"https://news.example/harbour?id=7&utm_source=chatgpt.com","attribution":"Example News","refs":[{"turn_index":0,"ref_type":"search","ref_index":1}]},
           {"title":"Pier (rebuilt)","url":"https://port.example/pier","attribution":"","refs":[{"turn_index":0,"ref_type":"search","ref_index":2}]},
           {"title":"Same page again","url":"https://news.example/harbour?id=7&utm_source=chatgpt.com","attribution":"Example News"}]},
 {"matched_text":"\ue203","type":"hidden","alt":null,"items":[]},
 {"matched_text":"\ue200cite\ue202turn0search4\ue201","type":"grouped_webpages","alt":null,"items":[]},
 {"matched_text":"\ue206","type":"sources_footnote","safe_urls":["https://help.openai.com/en/articles/1"]},
 {"matched_text":"\ue200cite\ue202turn1search0\ue201","type":"grouped_webpages","items":[
   {"title":"Evil](javascript:alert(1))","url":"https://evil.example/a(b)c d","attribution":""},
   {"title":"Click me","url":"javascript:alert(1)","attribution":""},
   {"title":"","url":"https://www.bare.example/x","attribution":""},
   {"title":"Creds","url":"https://user:pw@creds.example/","attribution":""},
   {"title":"<img src=x>","url":"https://img.example/","attribution":""},
   {"title":"ignored","url":"https://html.example/","attribution":"` + "`code`" + ` \\ [x]"}]},
 {"matched_text":"\ue200cite\ue202turn2search0\ue201","type":"grouped_webpages","alt":"([Only Alt](https://alt.example/p?utm_source=chatgpt.com))","items":[]},
 {"matched_text":"\ue200cite\ue202turn3search0\ue201","type":"grouped_webpages","alt":"([Alt Kept](https://alt.example/q))","items":[{"title":"","url":"ftp://x","attribution":""}]}
]`

func TestCitationsBecomeMarkdownLinks(t *testing.T) {
	var refs any
	if err := json.Unmarshal([]byte(refsJSON), &refs); err != nil {
		t.Fatal(err)
	}
	const (
		help = "([OpenAI Help Center](https://help.openai.com/en/articles/1))"
		two  = "([Example News](https://news.example/harbour?id=7), [Pier (rebuilt)](https://port.example/pier))"
	)
	cases := []struct{ name, in, want string }{
		{"text without sentinels is unchanged", "plain ✓", "plain ✓"},
		{"a span with one source becomes its link after a space, tracking dropped", "Search is on\ue200cite\ue202turn0search0\ue201.", "Search is on " + help + "."},
		{"a span after a space takes no second space", "Search is on. \ue200cite\ue202turn0search0\ue201", "Search is on. " + help},
		{"a span citing two items links each distinct URL once", "News\ue200cite\ue202turn0search1\ue202turn0search2\ue201 today", "News " + two + " today"},
		{"the same span twice links twice", "A\ue200cite\ue202turn0search0\ue201 B\ue200cite\ue202turn0search0\ue201", "A " + help + " B " + help},
		{"a span whose matched_text is unknown is found by its markers", "Pier\ue200cite\ue202turn0search2\ue202turn0search0\ue201", "Pier ([Pier (rebuilt)](https://port.example/pier), [OpenAI Help Center](https://help.openai.com/en/articles/1))"},
		{"a span no reference names is removed", "A\ue200cite\ue202turn9search9\ue201B", "AB"},
		{"a removed span before punctuation takes its space along", "Found nothing \ue200cite\ue202turn9search9\ue201.", "Found nothing."},
		{"a removed span between spaces leaves one", "Nothing. \ue200cite\ue202turn0search4\ue201 Next", "Nothing. Next"},
		{"a hidden marker is dropped", "A\ue203B", "AB"},
		{"a footnote marker is dropped", "Done.\ue206", "Done."},
		{"a span with no items and no alt is removed", "A\ue200cite\ue202turn0search4\ue201.", "A."},
		{"a span with no items takes the site's alt, cleaned", "A\ue200cite\ue202turn2search0\ue201", "A ([Only Alt](https://alt.example/p))"},
		{"a span whose items give nothing takes the alt", "A\ue200cite\ue202turn3search0\ue201", "A ([Alt Kept](https://alt.example/q))"},
		{"hostile titles and URLs stay inside their links; others become plain text or go",
			"See\ue200cite\ue202turn1search0\ue201",
			"See ([Evil\\](javascript:alert(1))](https://evil.example/a%28b%29c%20d), Click me, [bare.example](https://www.bare.example/x), Creds, [\\<img src=x\\>](https://img.example/), [\\`code\\` \\\\ \\[x\\]](https://html.example/))"},
		{"an unclosed span at the end is hidden until it closes", "Answer \ue200cite\ue202tu", "Answer "},
		{"a closed span without references is removed whole", "A\ue200cite\ue202turn0search2\ue201B", "AB"},
		{"two spans without references both go", "\ue200x\ue201A\ue200entity\ue202[\"a\"]\ue201", "A"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := refs
			if tc.name == "a closed span without references is removed whole" || tc.name == "two spans without references both go" {
				r = nil
			}
			if got := linkCitations(tc.in, r); got != tc.want {
				t.Fatalf("linkCitations(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestCleanAnswerRemovesCitationsWhateverReadTheText(t *testing.T) {
	in := "Documented\ue200cite\ue202turn0search1\ue201:\n\n```python\nprint(1)\n```\n\nDone.\ue200cite\ue202turn0search3\ue201"
	if got, want := cleanAnswer(in), "Documented:\n\n```python\nprint(1)\n```\n\nDone."; got != want {
		t.Fatalf("cleanAnswer = %q, want %q", got, want)
	}
}

func TestThePagesCitationPillsBecomeLinks(t *testing.T) {
	cases := []struct {
		name, text string
		pills      []pill
		want       string
	}{
		{"a pill becomes its link, tracking dropped", "Changed this week Harbour Times. Done.",
			[]pill{{Text: "Harbour Times", Href: "https://harbour.example/t?utm_source=chatgpt.com"}}, "Changed this week ([Harbour Times](https://harbour.example/t)). Done."},
		{"a pill's +N goes with it, the link keeps its name", "Opens in May Port Authority +1.",
			[]pill{{Text: "Port Authority +1", Href: "https://port.example/pier"}}, "Opens in May ([Port Authority](https://port.example/pier))."},
		{"pills with the same words are replaced in order", "A Wiki B Wiki C",
			[]pill{{Text: "Wiki", Href: "https://w.example/1"}, {Text: "Wiki", Href: "https://w.example/2"}}, "A ([Wiki](https://w.example/1)) B ([Wiki](https://w.example/2)) C"},
		{"a pill whose link is not http(s) stays as its words", "See example.com now",
			[]pill{{Text: "example.com", Href: "#"}, {Text: "Evil", Href: "javascript:alert(1)"}}, "See example.com now"},
		{"a hostile name stays inside its link", "Read Evil](x) now",
			[]pill{{Text: "Evil](x)", Href: "https://evil.example/(a)"}}, "Read ([Evil\\](x)](https://evil.example/%28a%29)) now"},
		{"a pill whose words the text lacks is skipped", "Plain text",
			[]pill{{Text: "Gone", Href: "https://gone.example/"}}, "Plain text"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := linkPills(tc.text, tc.pills); got != tc.want {
				t.Fatalf("linkPills = %q, want %q", got, tc.want)
			}
		})
	}
}
