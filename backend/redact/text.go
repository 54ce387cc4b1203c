package redact

import (
	"regexp"
	"sort"
	"strings"
)

// Patterns of what Text replaces, in the order it applies them.
var (
	// An Authorization header's value or a bearer token written out.
	bearerRE = regexp.MustCompile(`(?i)\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}`)
	// A JSON Web Token: three base64url parts, the first two starting as
	// JSON objects do.
	jwtRE = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)
	// A cookie or a secret-looking name with its value (name=value,
	// "name": "value", Name: value).
	pairRE = regexp.MustCompile(`(?i)\b([A-Za-z0-9_.-]*(?:token|cookie|secret|session|sess|auth|password|passwd|api[_-]?key|signature|sig|csrf|xsrf|jwt|credential)[A-Za-z0-9_.-]*)(=|["']?\s*:\s*["']?)([^\s"';&,<>=]{3,})`)
	// An e-mail address.
	emailRE = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)
	// The query or fragment of an address.
	queryRE = regexp.MustCompile(`(?i)\b((?:https?|wss?)://[^\s"'<>?#]*)[?#][^\s"'<>]*`)
	// A long run of token characters: hex digests, base64 keys, opaque ids
	// (not across a '/', so that an address's path stays readable).
	longTokenRE = regexp.MustCompile(`[A-Za-z0-9_+=-]{40,}`)
)

// Text is s with what may be a secret replaced by a marker: bearer tokens,
// JSON Web Tokens, secret-looking name=value pairs (cookies among them),
// e-mail addresses, the query and fragment of addresses, long opaque
// tokens, and every occurrence of each literal (the prompt of a run, its
// lines; literals shorter than 4 characters are ignored) and of any three
// words in a row of one (a note that quotes part of the prompt), compared
// without case. It keeps
// everything else, so that the shape of a page or a log stays readable.
func Text(s string, literals ...string) string {
	lits := make([]string, 0, len(literals))
	for _, l := range literals {
		if l = strings.TrimSpace(l); len(l) >= 4 {
			lits = append(lits, l)
		}
	}
	// Longest first, so that a line of the prompt does not break a
	// longer match of the whole prompt.
	sort.Slice(lits, func(i, j int) bool { return len(lits[i]) > len(lits[j]) })
	for _, l := range lits {
		s = strings.ReplaceAll(s, l, "[redacted text]")
	}
	s = fragments(s, lits)
	s = bearerRE.ReplaceAllString(s, "$1 [redacted token]")
	s = jwtRE.ReplaceAllString(s, "[redacted token]")
	s = pairRE.ReplaceAllString(s, "$1$2[redacted]")
	s = emailRE.ReplaceAllString(s, "[redacted e-mail]")
	s = queryRE.ReplaceAllString(s, "$1")
	s = longTokenRE.ReplaceAllString(s, "[redacted token]")
	return s
}

// Literals are the pieces of a text that Text should also find alone: the
// whole text and each of its lines of at least 12 characters (a page shows
// a multi-line prompt line by line).
func Literals(text string) []string {
	out := []string{text}
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); len(line) >= 12 {
			out = append(out, line)
		}
	}
	return out
}

// wordRE finds the words fragments compares.
var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)

// shingle is the number of words in a row that fragments matches.
const shingle = 3

// fragments replaces in s every run of words that holds shingle words in a
// row of one of lits.
func fragments(s string, lits []string) string {
	seen := map[string]bool{}
	for _, l := range lits {
		w := wordRE.FindAllString(strings.ToLower(l), -1)
		for i := 0; i+shingle <= len(w); i++ {
			seen[strings.Join(w[i:i+shingle], " ")] = true
		}
	}
	if len(seen) == 0 {
		return s
	}
	spans := wordRE.FindAllStringIndex(s, -1)
	hit := make([]bool, len(spans))
	found := false
	for i := 0; i+shingle <= len(spans); i++ {
		parts := make([]string, shingle)
		for j := range parts {
			parts[j] = strings.ToLower(s[spans[i+j][0]:spans[i+j][1]])
		}
		if seen[strings.Join(parts, " ")] {
			for j := 0; j < shingle; j++ {
				hit[i+j] = true
			}
			found = true
		}
	}
	if !found {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); i++ {
		if !hit[i] {
			continue
		}
		j := i
		for j+1 < len(spans) && hit[j+1] {
			j++
		}
		b.WriteString(s[last:spans[i][0]])
		b.WriteString("[redacted text]")
		last = spans[j][1]
		i = j
	}
	b.WriteString(s[last:])
	return b.String()
}
