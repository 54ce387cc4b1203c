package artifact

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// SandboxDir is where a code interpreter's sandbox keeps the files it
// writes (ChatGPT's does).
const SandboxDir = "/mnt/data/"

// Source says where in a message a sandbox path was seen. A site's scan
// names its own places (a tool's output, say) as Sources of its own.
type Source string

// The places a sandbox path can appear in any text.
const (
	SourceLink  Source = "link"  // [label](sandbox:/mnt/data/x.zip)
	SourcePlain Source = "plain" // a bare /mnt/data/x.zip in text
)

// Found is one sandbox zip the conversation names.
type Found struct {
	Path string `json:"path"`
	// MessageIDs are the messages holding the path, in the order the mint
	// should try them: assistant text messages newest first, then tool
	// messages newest first. The download mint needs one of them.
	MessageIDs []string `json:"messageIds"`
	Sources    []Source `json:"sources"`
}

// Rejected is a path-like string that was not accepted as a sandbox zip
// (the record a retrieve receipt keeps).
type Rejected = record.RejectedPath

// ScanResult lists the zips in first-seen order and what was refused.
type ScanResult struct {
	Zips     []Found    `json:"zips"`
	Rejected []Rejected `json:"rejected,omitempty"`
}

// ScanText finds the sandbox zips in one answer's text (the streamed case,
// before the site's record of the conversation is available). messageID
// may be "".
func ScanText(text, messageID string) *ScanResult {
	s := NewScanner()
	s.Text(text, messageID, false, SourcePlain)
	return s.Result()
}

type holder struct {
	id    string
	tool  bool
	order int
}

// Scanner collects the sandbox zips named in the texts of several messages
// (a site's conversation record, message by message), deduplicated, in
// first-seen order, each with the messages that hold it. The zero value is
// not ready: use NewScanner.
type Scanner struct {
	order    []string
	found    map[string]*Found
	holders  map[string][]holder
	rejected []Rejected
	seenRej  map[string]bool
	n        int
}

// NewScanner returns an empty Scanner.
func NewScanner() *Scanner {
	return &Scanner{found: map[string]*Found{}, holders: map[string][]holder{}, seenRej: map[string]bool{}}
}

var (
	// A Markdown link to the sandbox; the target may hold spaces.
	linkRe = regexp.MustCompile(`\]\(\s*sandbox:([^)\n]*)\)`)
	// A bare path: runs until a character that cannot be part of one.
	plainRe = regexp.MustCompile(`/mnt/data/[^\s'"` + "`" + `()\[\]<>{}|,;*]*`)
)

type hit struct {
	at     int
	raw    string
	source Source
}

// Text scans the text t of message messageID ("" when unknown): Markdown
// sandbox links and bare sandbox paths, the bare ones recorded with
// plainSource. tool says the message is a tool's output, which the mint
// tries after the assistant's own messages. Hostile paths are rejected and
// listed, never returned.
func (s *Scanner) Text(t, messageID string, tool bool, plainSource Source) {
	var hits []hit
	for _, m := range linkRe.FindAllStringSubmatchIndex(t, -1) {
		hits = append(hits, hit{m[2], strings.TrimSpace(t[m[2]:m[3]]), SourceLink})
	}
	for _, m := range plainRe.FindAllStringIndex(t, -1) {
		raw := strings.TrimRight(t[m[0]:m[1]], ".:!?")
		if m[0] >= len("sandbox:") && t[m[0]-len("sandbox:"):m[0]] == "sandbox:" {
			continue // the link pass has it, spaces and all
		}
		hits = append(hits, hit{m[0], raw, plainSource})
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].at < hits[j].at })
	for _, h := range hits {
		if !strings.HasSuffix(strings.ToLower(h.raw), ".zip") {
			if looksLikeZipAttempt(t, h) {
				s.reject(h.raw, "the path is cut by a quote, bracket or other character a sandbox file name does not hold", messageID)
			}
			continue
		}
		if why := unsafeSandboxPath(h.raw, h.source == SourceLink); why != "" {
			s.reject(h.raw, why, messageID)
			continue
		}
		s.add(h.raw, messageID, tool, h.source)
	}
}

// looksLikeZipAttempt reports a bare path that a forbidden character cut
// short of a ".zip" later on the same line, so that such paths are reported
// rather than silently dropped.
func looksLikeZipAttempt(t string, h hit) bool {
	rest := t[h.at+len(h.raw):]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	if len(rest) == 0 || unicode.IsSpace(rune(rest[0])) {
		return false
	}
	word := rest
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		word = rest[:i]
	}
	return strings.Contains(strings.ToLower(word), ".zip")
}

func (s *Scanner) reject(raw, why, messageID string) {
	k := raw + "\x00" + why
	if s.seenRej[k] {
		return
	}
	s.seenRej[k] = true
	s.rejected = append(s.rejected, Rejected{Raw: raw, Why: why, MessageID: messageID})
}

func (s *Scanner) add(p, messageID string, tool bool, src Source) {
	f, ok := s.found[p]
	if !ok {
		f = &Found{Path: p}
		s.found[p] = f
		s.order = append(s.order, p)
	}
	if !containsSource(f.Sources, src) {
		f.Sources = append(f.Sources, src)
	}
	if messageID == "" {
		return
	}
	for _, h := range s.holders[p] {
		if h.id == messageID {
			return
		}
	}
	s.n++
	s.holders[p] = append(s.holders[p], holder{messageID, tool, s.n})
}

func containsSource(ss []Source, s Source) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Result lists the zips found so far in first-seen order, each with its
// messages in the order the mint should try them, and what was refused.
func (s *Scanner) Result() *ScanResult {
	r := &ScanResult{Zips: []Found{}, Rejected: s.rejected}
	for _, p := range s.order {
		f := *s.found[p]
		hs := append([]holder(nil), s.holders[p]...)
		sort.SliceStable(hs, func(i, j int) bool {
			if hs[i].tool != hs[j].tool {
				return !hs[i].tool
			}
			return hs[i].order > hs[j].order
		})
		f.MessageIDs = []string{}
		for _, h := range hs {
			f.MessageIDs = append(f.MessageIDs, h.id)
		}
		r.Zips = append(r.Zips, f)
	}
	return r
}

// ValidateSandboxPath returns nil when p is a plain zip path under
// /mnt/data/, and a BadInput envelope naming the problem otherwise.
func ValidateSandboxPath(p string) error {
	if !strings.HasSuffix(strings.ToLower(p), ".zip") {
		return errs.New(errs.BadInput, "sandbox path %q does not name a .zip file", p)
	}
	if why := unsafeSandboxPath(p, true); why != "" {
		return errs.New(errs.BadInput, "sandbox path %q: %s", p, why).WithHint("give a path like /mnt/data/project.zip")
	}
	return nil
}

// unsafeSandboxPath says why p is not a plain path under /mnt/data/, or "".
// Percent-escapes are refused rather than decoded: ChatGPT writes paths
// literally, and an encoded path is a way to smuggle ".." past a check.
func unsafeSandboxPath(p string, spacesAllowed bool) string {
	switch {
	case !strings.HasPrefix(p, SandboxDir):
		return "the path is not under " + SandboxDir
	case strings.ContainsAny(p, `%\'"`+"`"):
		return "the path holds an escape, a backslash or a quote"
	case !spacesAllowed && strings.ContainsRune(p, ' '):
		return "the path holds a space"
	}
	for _, r := range p {
		if unicode.IsControl(r) || (unicode.IsSpace(r) && r != ' ') {
			return fmt.Sprintf("the path holds the character %U", r)
		}
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return "the path has a \"..\" component"
		}
	}
	if path.Clean(p) != p {
		return "the path is not clean (it has . components or doubled slashes)"
	}
	base := path.Base(p)
	if strings.HasPrefix(base, ".") || len(base) <= len(".zip") {
		return "the file name is empty or hidden"
	}
	return ""
}
