package wording

import (
	"context"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/service"
)

// The window names sites as Compose does ("ChatGPT"), while the backend's
// messages and records carry their ids ("chatgpt"). The names are the site
// registry's, read when the core opens and again when the settings are saved
// (a "sites" entry may name a site).

// siteDisplay is the registry's names by id; nil until a core opened.
var siteDisplay atomic.Pointer[map[string]string]

// RememberSiteNames reads the registry's names from svc, asking as
// caller; when svc cannot list the sites, ids stay as they are.
func RememberSiteNames(ctx context.Context, svc service.Service, caller service.Caller) {
	sites, err := svc.ListSites(ctx, caller, service.ListSitesRequest{})
	if err != nil {
		return // the ids are shown as they are
	}
	names := make(map[string]string, len(sites))
	for _, s := range sites {
		if s.Name != "" {
			names[s.ID] = s.Name
		}
	}
	siteDisplay.Store(&names)
}

// SiteName is site id's name, or the id when the registry does not name it.
func SiteName(id string) string {
	if m := siteDisplay.Load(); m != nil {
		if n := (*m)[id]; n != "" {
			return n
		}
	}
	return id
}

// withSiteNames returns text with each site id that stands as a word
// replaced by the site's name. An id inside an address, a path or a longer
// word (chatgpt.com, /claude/, claude-3) is left alone.
func withSiteNames(text string) string {
	m := siteDisplay.Load()
	if m == nil || text == "" {
		return text
	}
	ids := make([]string, 0, len(*m))
	for id, name := range *m {
		if id != name {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	for _, id := range ids {
		text = replaceWord(text, id, (*m)[id])
	}
	return text
}

// replaceWord replaces the occurrences of word in text that stand alone.
func replaceWord(text, word, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, word)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		end := i + len(word)
		if standsAlone(text, i, end) {
			b.WriteString(text[:i])
			b.WriteString(with)
		} else {
			b.WriteString(text[:end])
		}
		text = text[end:]
	}
}

// standsAlone reports whether text[i:end] is a word of its own: not joined
// to letters, digits or the marks of an address or a path on either side
// (a full stop or a colon that ends a sentence or a clause does not join).
func standsAlone(text string, i, end int) bool {
	if i > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:i])
		if isWordRune(r) || strings.ContainsRune("./:-_@", r) {
			return false
		}
	}
	if end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if isWordRune(r) || strings.ContainsRune("/-_@", r) {
			return false
		}
		if r == '.' || r == ':' {
			next, _ := utf8.DecodeRuneInString(text[end+size:])
			if end+size < len(text) && !unicode.IsSpace(next) {
				return false // chatgpt.com, claude:443
			}
		}
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
