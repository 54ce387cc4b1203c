package chatgpt

import (
	"net/url"
	"regexp"

	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/cite"
)

// The citation spans of ChatGPT's answers (package cite).
var (
	linkCitations  = cite.Link
	stripCitations = cite.Strip
	isCiteRune     = cite.IsCiteRune
	linkPills      = cite.LinkPills
)

type pill = cite.Pill

// cleanAnswer is the cleanup of an answer's text read without its
// references (the page's text, a stream or conversation text already
// linked): citation spans and stray sentinels removed.
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
