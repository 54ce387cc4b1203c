package sitecheck

import (
	"fmt"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// RoleStatus is the verdict on one selector role.
type RoleStatus string

// The verdicts on a role.
const (
	// RoleOK: a selector of the role's list matches on the page.
	RoleOK RoleStatus = "ok"
	// RoleMissing: the page should show the role now (or shows an element
	// that looks like it) and no selector of the list matches.
	RoleMissing RoleStatus = "missing"
	// RoleNotShown: nothing matches, and the page need not show the role
	// in its present state (a stop control while idle).
	RoleNotShown RoleStatus = "not_shown"
	// RoleUndefined: the site has no selector for the role.
	RoleUndefined RoleStatus = "undefined"
)

// Candidate is an element of the page that looks like a role that
// resolves nowhere, with the selector that matches it and the settings
// entry that would make the role use it.
type Candidate struct {
	Selector string `json:"selector"`
	// Matches is how many elements of the page the selector matches.
	Matches int    `json:"matches"`
	Score   int    `json:"score"`
	Tag     string `json:"tag"`
	Role    string `json:"role,omitempty"`
	Label   string `json:"label,omitempty"`
	TestID  string `json:"testId,omitempty"`
	Text    string `json:"text,omitempty"`
	// Override is one entry of the "sites" setting, ready to paste: the
	// site's id and the role's list with Selector first and the site's
	// own selectors after it.
	Override string `json:"override"`
}

// RoleCheck is one selector role of the site on the page.
type RoleCheck struct {
	Role      site.Role  `json:"role"`
	Status    RoleStatus `json:"status"`
	Selectors []string   `json:"selectors"`
	// Matched is the index in Selectors of the first selector that
	// matches (-1 for none) and MatchedSelector that selector.
	Matched         int    `json:"matched"`
	MatchedSelector string `json:"matchedSelector,omitempty"`
	Count           int    `json:"count,omitempty"`
	// Invalid lists the selectors the browser cannot parse.
	Invalid    []string    `json:"invalid,omitempty"`
	Note       string      `json:"note,omitempty"`
	Candidates []Candidate `json:"candidates,omitempty"`
	// Blocks is, for a missing role the site lists as optional, the
	// feature that cannot work without it; the site stays ok for plain
	// asks.
	Blocks site.Feature `json:"blocks,omitempty"`
}

// StreamStatus is the verdict on the stream capture.
type StreamStatus string

// The verdicts on the stream capture.
const (
	StreamOK StreamStatus = "ok" // a request of the page matches the site's stream pattern
	// StreamMissed: the page streamed its last turn over a request the
	// pattern does not match, so a run would fall back to the DOM.
	StreamMissed StreamStatus = "missed"
	// StreamUnseen: no turn was answered in this tab since it loaded;
	// nothing to check until one is.
	StreamUnseen StreamStatus = "unseen"
	StreamNone   StreamStatus = "none" // the site captures no stream
)

// StreamCheck is the passive check of the stream capture on the last turn.
type StreamCheck struct {
	Status  StreamStatus `json:"status"`
	Pattern string       `json:"pattern,omitempty"`
	// Matched is the path of the request the pattern matched.
	Matched string `json:"matched,omitempty"`
	// Seen are the paths of the page's requests that look like an answer
	// stream (the likeliest first).
	Seen     []string `json:"seen,omitempty"`
	Detail   string   `json:"detail"`
	Override string   `json:"override,omitempty"`
}

// Interstitial is what stands in the way on the page.
type Interstitial struct {
	Kind    string    `json:"kind"`
	Code    errs.Code `json:"code,omitempty"`
	Message string    `json:"message,omitempty"`
	// Blocking is true when a run would not type into the page.
	Blocking bool `json:"blocking"`
}

// SiteReport is the check of one site.
type SiteReport struct {
	Site string `json:"site"`
	Name string `json:"name"`
	OK   bool   `json:"ok"`
	// TargetID is the tab checked; Opened says the check opened it.
	TargetID string `json:"targetId,omitempty"`
	Opened   bool   `json:"opened,omitempty"`
	// URL is the tab's address without query, fragment or userinfo.
	URL      string `json:"url,omitempty"`
	LoggedIn bool   `json:"loggedIn"`
	// Login says how to log in, when no user is.
	Login        string        `json:"login,omitempty"`
	Interstitial *Interstitial `json:"interstitial,omitempty"`
	Roles        []RoleCheck   `json:"roles,omitempty"`
	Stream       *StreamCheck  `json:"stream,omitempty"`
	// Problems are the findings that make the site not ok, one line each.
	Problems []string `json:"problems,omitempty"`
	// Error is the envelope of a check that could not look at the page.
	Error *errs.Envelope `json:"error,omitempty"`
}

// Report is the check of every site asked for. OK is true when every site
// is ok.
type Report struct {
	OK    bool         `json:"ok"`
	Sites []SiteReport `json:"sites"`
}

// NewReport computes OK from the sites.
func NewReport(sites []SiteReport) Report {
	r := Report{OK: true, Sites: sites}
	if r.Sites == nil {
		r.Sites = []SiteReport{}
	}
	for _, s := range sites {
		r.OK = r.OK && s.OK
	}
	return r
}

// BrowserClosed rewords r, the check of site s in a browser launched for
// the check alone and quit after it: a tab left open for logging in is
// gone with it.
func (r *SiteReport) BrowserClosed(s site.Site) {
	if !r.LoggedIn && r.Error == nil && r.Login != "" {
		r.Login = fmt.Sprintf("log in to %s at %s in Ferry's browser (the check quit the browser it launched for itself; the Ferry app keeps one open), then check again", s.Name, s.Address)
	}
}
