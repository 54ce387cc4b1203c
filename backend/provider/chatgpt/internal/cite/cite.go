// Package cite turns ChatGPT's citation spans into Markdown links: from
// the assistant message's content_references (Link), or from the citation
// pills of the page's answer (LinkPills); Strip removes them.
package cite

import (
	"bytes"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/stream"
)

// ChatGPT marks citations with private-use sentinels: U+E200 opens a span
// such as "\ue200cite\ue202turn0search2\ue201", U+E201 closes it, and
// U+E202..U+E206 separate its parts. The span is machine markup, not answer
// text; the assistant message's metadata.content_references say what each
// span cites.
const (
	citeOpen  = '\ue200'
	citeClose = '\ue201'
	citeLast  = '\ue206'
)

// Strip removes every citation span: Link with no
// references.
func Strip(s string) string { return Link(s, nil) }

// Link replaces every citation span of s with Markdown links to
// the sources refs (a message's metadata.content_references, as decoded
// JSON) give it, the way the site's own copy reads: " ([Name](url), …)".
//
// A span is looked up by the reference whose matched_text it is, else by
// its turn markers ("turn0search2") among the references' items. Each
// distinct http(s) URL becomes one link named by the source's attribution,
// title or host; the tracking parameter utm_source=chatgpt.com the site
// adds is dropped. A source whose URL is not http(s) keeps only its name,
// as plain text. A span with no usable source (type "hidden", no items, an
// unknown marker) is removed, as is a span still open at the end (the
// stream has not sent its close yet: partial text never shows half a
// marker) and any stray sentinel; the space before a removed span goes
// too when punctuation follows it.
func Link(s string, refs any) string {
	if !strings.ContainsFunc(s, IsCiteRune) {
		return s
	}
	idx := indexCitations(refs)
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == citeOpen:
			end := strings.IndexRune(s[i+size:], citeClose)
			if end < 0 {
				return string(b)
			}
			span := s[i : i+size+end+utf8.RuneLen(citeClose)]
			i += len(span)
			n := len(b)
			if b = appendSources(b, idx.sources(span)); len(b) == n {
				// Nothing to link: the space before the span goes when
				// punctuation, a space or the end follows.
				if next, _ := utf8.DecodeRuneInString(s[i:]); i == len(s) || next == ' ' || strings.ContainsRune(".,;:!?)", next) {
					b = bytes.TrimRight(b, " ")
				}
			}
		case IsCiteRune(r):
			i += size
		default:
			b = append(b, s[i:i+size]...)
			i += size
		}
	}
	return string(b)
}

func IsCiteRune(r rune) bool { return r >= citeOpen && r <= citeLast }

// source is one cited web page: its link text and its cleaned URL ("" for
// a source named as plain text).
type source struct{ name, url string }

// citations indexes a message's content_references.
type citations struct {
	byText map[string][]source // matched_text -> its sources
	byRef  map[string][]source // "turn0search2" -> the items it names
}

// indexCitations reads content_references: a list of objects with
// matched_text, type, alt and items ({title, url, attribution, refs:
// [{turn_index, ref_type, ref_index}]}). Anything else is ignored.
func indexCitations(refs any) citations {
	c := citations{byText: map[string][]source{}, byRef: map[string][]source{}}
	list, _ := refs.([]any)
	for _, ref := range list {
		text := stream.Str(stream.Get(ref, "matched_text"))
		var srcs []source
		items, _ := stream.Get(ref, "items").([]any)
		for _, it := range items {
			src, ok := itemSource(it)
			if !ok {
				continue
			}
			srcs = append(srcs, src)
			marks, _ := stream.Get(it, "refs").([]any)
			for _, m := range marks {
				turn, okT := stream.Get(m, "turn_index").(float64)
				n, okN := stream.Get(m, "ref_index").(float64)
				if okT && okN {
					key := "turn" + strconv.Itoa(int(turn)) + stream.Str(stream.Get(m, "ref_type")) + strconv.Itoa(int(n))
					c.byRef[key] = append(c.byRef[key], src)
				}
			}
		}
		switch stream.Str(stream.Get(ref, "type")) {
		case "hidden", "sources_footnote":
			// A marker to drop; the footnote lists the sources the
			// spans already link.
			srcs = nil
		default:
			if len(srcs) == 0 {
				srcs = altSources(stream.Str(stream.Get(ref, "alt")))
			}
		}
		if text != "" {
			if _, seen := c.byText[text]; !seen {
				c.byText[text] = srcs
			}
		}
	}
	return c
}

// sources are the sources a span cites, nil for none.
func (c citations) sources(span string) []source {
	if srcs, ok := c.byText[span]; ok {
		return srcs
	}
	var out []source
	inner := strings.TrimSuffix(strings.TrimPrefix(span, string(citeOpen)), string(citeClose))
	for _, mark := range strings.FieldsFunc(inner, IsCiteRune) {
		out = append(out, c.byRef[mark]...)
	}
	return out
}

func itemSource(it any) (source, bool) {
	raw := stream.Str(stream.Get(it, "url"))
	u := cleanURL(raw)
	name := ""
	for _, k := range []string{"attribution", "title"} {
		if name = linkText(stream.Str(stream.Get(it, k))); name != "" {
			break
		}
	}
	if name == "" && u != "" {
		pu, _ := url.Parse(u)
		name = linkText(strings.TrimPrefix(pu.Hostname(), "www."))
	}
	return source{name: name, url: u}, name != ""
}

// altLink is one Markdown link of a reference's alt, the site's own
// fallback ("([OpenAI Help Center](https://help.openai.com/…))").
var altLink = regexp.MustCompile(`\[([^\[\]]+)\]\(([^()\s]+)\)`)

func altSources(alt string) []source {
	var out []source
	for _, m := range altLink.FindAllStringSubmatch(alt, 8) {
		if name := linkText(m[1]); name != "" {
			out = append(out, source{name: name, url: cleanURL(m[2])})
		}
	}
	return out
}

// appendSources appends a span's sources as " ([A](u1), [B](u2))": one
// entry per distinct URL (a source without one by its name), after a space
// unless the text already ends in one.
func appendSources(b []byte, srcs []source) []byte {
	seen := map[string]bool{}
	var parts []string
	for _, s := range srcs {
		key := s.url
		if key == "" {
			key = "\x00" + s.name
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		if s.url == "" {
			parts = append(parts, s.name)
		} else {
			parts = append(parts, "["+s.name+"]("+s.url+")")
		}
	}
	if len(parts) == 0 {
		return b
	}
	if last, _ := utf8.DecodeLastRune(b); len(b) > 0 && !unicode.IsSpace(last) && last != '(' {
		b = append(b, ' ')
	}
	return append(b, "("+strings.Join(parts, ", ")+")"...)
}

// linkText is s as safe Markdown link text: on one line, with the
// characters that could end the text or open a link, code or HTML
// (brackets, backquotes, angle brackets, backslashes) escaped, and at most
// 200 characters.
func linkText(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || IsCiteRune(r) }), " ")
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:200]) + "…"
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\[]<>`", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cleanURL is raw as a link target, or "" when it is not an absolute
// http(s) URL with a host and no credentials. The tracking parameter
// utm_source=chatgpt.com is dropped, and the characters that would end or
// break a Markdown link destination are percent-encoded.
func cleanURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Opaque != "" {
		return ""
	}
	if u.RawQuery != "" {
		var keep []string
		for _, kv := range strings.Split(u.RawQuery, "&") {
			if kv != "" && kv != "utm_source=chatgpt.com" {
				keep = append(keep, kv)
			}
		}
		u.RawQuery = strings.Join(keep, "&")
		u.ForceQuery = false
	}
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E", "\\", "%5C", "`", "%60").Replace(u.String())
}

// Pill is one citation pill of the page's answer: its words and its link.
type Pill struct {
	Text string `json:"text"`
	Href string `json:"href"`
}

// morePill is the "+N" a pill shows after its name for a span's further
// sources.
var morePill = regexp.MustCompile(`\s*\+\d+$`)

// LinkPills replaces each pill's words in text, in order, with its link.
func LinkPills(text string, pills []Pill) string {
	var b []byte
	rest := text
	for _, p := range pills {
		u, name := cleanURL(p.Href), linkText(morePill.ReplaceAllString(p.Text, ""))
		i := strings.Index(rest, p.Text)
		if u == "" || name == "" || p.Text == "" || i < 0 {
			continue
		}
		b = appendSources(append(b, rest[:i]...), []source{{name: name, url: u}})
		rest = rest[i+len(p.Text):]
	}
	return string(append(b, rest...))
}
