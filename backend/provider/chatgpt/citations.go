package chatgpt

import (
	"net/url"
	"regexp"
	"strings"
)

// ChatGPT marks citations with private-use sentinels: U+E200 opens a span
// such as "\ue200cite\ue202turn0search2\ue201", U+E201 closes it, and
// U+E202..U+E206 separate its parts. The whole span is machine markup, not
// answer text.
const (
	citeOpen  = '\ue200'
	citeClose = '\ue201'
	citeLast  = '\ue206'
)

// stripCitations removes every citation span. A span still open at the end
// (the stream has not sent its close yet) is removed to the end, so partial
// text never shows half a marker; stray sentinels are dropped too.
func stripCitations(s string) string {
	if !strings.ContainsFunc(s, isCiteRune) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	depth := 0
	for _, r := range s {
		switch {
		case r == citeOpen:
			depth++
		case r == citeClose:
			if depth > 0 {
				depth--
			}
		case isCiteRune(r):
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isCiteRune(r rune) bool { return r >= citeOpen && r <= citeLast }

// cleanAnswer is the one cleanup of an answer's text, whatever read it (the
// stream, the page, the conversation): citation spans removed.
func cleanAnswer(s string) string { return stripCitations(s) }

// conversationIDOf is the conversation id of a ChatGPT conversation's
// lasting address (the segment after /c/), or "" for any other address,
// a transient one (/c/WEB:<uuid>) included.
func conversationIDOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	m := durablePath.FindStringSubmatch(u.EscapedPath())
	if m == nil {
		return ""
	}
	return m[1]
}

var durablePath = regexp.MustCompile(DurablePath)
