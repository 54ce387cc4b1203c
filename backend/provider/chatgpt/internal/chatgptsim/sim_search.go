package chatgptsim

import (
	"slices"
	"strings"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// Web search (the providers reference, ChatGPT "Tools" → "Web search"): a
// send whose system_hints name "search" is answered with citation spans
// (U+E200 cite U+E202 turn0search0 U+E201) that the assistant message's
// metadata.content_references resolve, in the site's shape: a
// grouped_webpages span with its alt and one item, a span citing two
// items (one named only by a title holding brackets, both URLs with the
// utm_source=chatgpt.com the site adds), a hidden marker (U+E203), a
// grouped_webpages span with no items (nothing to link) and a
// sources_footnote (U+E206). The stream sends the first reference a chunk
// after its span closed and the rest in the closing patch; the
// conversation carries them all; the page renders each span as a pill
// link named by its first source, "+N" for more.

const (
	spanOpen, spanSep, spanClose = "\ue200", "\ue202", "\ue201"
	hiddenMark, footnoteMark     = "\ue203", "\ue206"
)

func citeSpan(refs ...string) string {
	s := spanOpen + "cite"
	for _, r := range refs {
		s += spanSep + r
	}
	return s + spanClose
}

// searches reports whether a send's system_hints ask for web search.
func searches(hints []string) bool { return slices.Contains(hints, "search") }

// searchAnswer is the answer to prompt with web search on: its text and
// its content_references.
func searchAnswer(prompt string) (string, []any) {
	timetable, pier, nothing := citeSpan("turn0search0"), citeSpan("turn0search1", "turn0search2"), citeSpan("turn0search4")
	text := "Here’s the latest on “" + sim.PromptTopic(prompt) + "”: the ferry timetable changed this week " + timetable +
		". The new pier opens in May " + pier + "." + hiddenMark + "\n\nOne search found nothing useful " + nothing +
		". That is the whole answer." + footnoteMark
	ref := func(typ, matched string, alt any, items []any, safe ...any) sim.Obj {
		return sim.O("matched_text", matched, "start_idx", 0, "end_idx", 0, "refs", []any{}, "alt", alt, "prompt_text", nil,
			"type", typ, "status", "done", "style", nil, "safe_urls", append([]any{}, safe...), "items", items)
	}
	item := func(title, url, attribution string, n int, supporting ...any) sim.Obj {
		return sim.O("title", title, "url", url, "pub_date", nil, "snippet", "…", "attribution", attribution,
			"supporting_websites", append([]any{}, supporting...), "refs", []any{sim.O("turn_index", 0, "ref_type", "search", "ref_index", n)},
			"hue", nil, "attributions", nil)
	}
	const (
		timetableURL = "https://harbour.example/timetable?utm_source=chatgpt.com"
		pierURL      = "https://port.example/pier"
		newsURL      = "https://news.example/pier?lang=en&utm_source=chatgpt.com"
	)
	refs := []any{
		ref("grouped_webpages", timetable, "([Harbour Times]("+timetableURL+"))",
			[]any{item("Winter timetable", timetableURL, "Harbour Times", 0)}, timetableURL),
		ref("grouped_webpages", pier, nil, []any{
			item("Pier works", pierURL, "Port Authority", 1, sim.O("title", "Pier works, again", "url", newsURL, "attribution", "")),
			item("Pier [phase 2] opens", newsURL, "", 2),
		}, pierURL, newsURL),
		ref("hidden", hiddenMark, nil, []any{}),
		ref("grouped_webpages", nothing, nil, []any{}),
		ref("sources_footnote", footnoteMark, nil, []any{}, timetableURL, pierURL),
	}
	return text, refs
}

// refPacer sends a search answer's content_references on its stream: the
// first one a chunk after its span has closed, the rest with the closing
// patch (all of them there when the answer streamed too fast for that).
type refPacer struct {
	refs  []any
	early bool   // the first went out mid-stream
	prev  string // the answer as sent up to the chunk before
}

const refsPath = "/message/metadata/content_references"

// chunk is called after each chunk of the answer, with the answer so far.
func (p *refPacer) chunk(d *deltaEncoder, sent string) {
	if !p.early && len(p.refs) > 0 {
		if first := p.refs[0].(sim.Obj); strings.Contains(p.prev, first[0].V.(string)) {
			d.op(refsPath, "append", []any{first}, -1)
			p.early = true
		}
	}
	p.prev = sent
}

// tail is the closing patch's op for the references not yet sent.
func (p *refPacer) tail() []sim.Obj {
	rest := p.refs
	if p.early {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return nil
	}
	return []sim.Obj{sim.O("p", refsPath, "o", "append", "v", rest)}
}
