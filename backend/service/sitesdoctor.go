package service

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// SitesDoctorRequest asks for the live, read-only check of the sites
// (`ferry doctor --sites`): Sites are the site ids to check (none: every
// site the user uses, those of the open tabs and of the history, or every
// site when there are none). The browser to check in: BrowserURL attaches
// to that browser; Browser names it as the browser flags do (BrowserLaunch
// launches Ferry's own browser on its profile for the check and quits it
// after; BrowserOwn is Ferry's own running browser; BrowserAttach the one
// at its URL); neither is the owner's long-lived browser, else Ferry's own
// running one, else Ferry's own launched for the check and quit after it.
// An owner always checks in its own browser when Browser launches.
type SitesDoctorRequest struct {
	Sites      []string     `json:"sites,omitempty"`
	BrowserURL string       `json:"browserUrl,omitempty"`
	Browser    *BrowserSpec `json:"browser,omitempty"`
}

// Validate checks the browser and that no site id is blank. Errors:
// errs.BadInput, also for both Browser and BrowserURL.
func (r SitesDoctorRequest) Validate() error {
	for _, id := range r.Sites {
		if strings.TrimSpace(id) == "" {
			return errs.New(errs.BadInput, "a site to check has an empty id").WithHint("name sites by id (chatgpt, claude, gemini, …), as `ferry doctor --sites` shows them")
		}
	}
	if r.Browser != nil {
		if r.BrowserURL != "" {
			return errs.New(errs.BadInput, "the check names its browser twice (browser and browserUrl)").
				WithHint("keep one: browserUrl, or browser with mode attach and its url")
		}
		if err := r.Browser.Validate(); err != nil {
			return err
		}
		return CheckBrowserURL(r.Browser.URL)
	}
	return CheckBrowserURL(r.BrowserURL)
}

// RoleStatus is the verdict on one selector role (SiteRoleCheck.Status).
type RoleStatus string

// The verdicts on a selector role.
const (
	RoleOK        RoleStatus = "ok"        // a selector of the list matches
	RoleMissing   RoleStatus = "missing"   // the page should show it (or shows what looks like it) and no selector matches
	RoleNotShown  RoleStatus = "not_shown" // nothing matches and the page need not show it now (a stop control while idle)
	RoleUndefined RoleStatus = "undefined" // the site has no selector for it
)

// StreamStatus is the verdict on the stream capture (SiteStreamCheck.Status).
type StreamStatus string

// The verdicts on the stream capture.
const (
	StreamOK     StreamStatus = "ok"     // a request of the page matches the stream pattern
	StreamMissed StreamStatus = "missed" // the last turn streamed over a request the pattern misses: a run falls back to the DOM
	StreamUnseen StreamStatus = "unseen" // no turn answered in the tab since it loaded: nothing to check yet
	StreamNone   StreamStatus = "none"   // the site captures no stream
)

// SitesReport is the live check of the sites: OK when every site is.
type SitesReport struct {
	OK    bool         `json:"ok"`
	Sites []SiteReport `json:"sites"`
}

// SiteReport is the check of one site in one tab.
type SiteReport struct {
	Site     string `json:"site"`
	Name     string `json:"name"`
	OK       bool   `json:"ok"`
	TargetID string `json:"targetId,omitempty"`
	// Opened says the check opened the tab (in the background).
	Opened bool `json:"opened,omitempty"`
	// URL is the tab's address without query, fragment or userinfo.
	URL      string `json:"url,omitempty"`
	LoggedIn bool   `json:"loggedIn"`
	// Login says how to log in, when no user is.
	Login        string            `json:"login,omitempty"`
	Interstitial *SiteInterstitial `json:"interstitial,omitempty"`
	Roles        []SiteRoleCheck   `json:"roles,omitempty"`
	Stream       *SiteStreamCheck  `json:"stream,omitempty"`
	// Layouts name, per aspect of the page, the known layout it shows
	// ("turns: 2026-09-29 markup"), or that it shows one Ferry does not
	// know.
	Layouts  []SiteLayout   `json:"layouts,omitempty"`
	Problems []string       `json:"problems,omitempty"`
	Error    *errs.Envelope `json:"error,omitempty"`
}

// SiteLayout is the layout of one aspect of a site's page as the check saw
// it: Layout names a known one; Unknown says the page shows the aspect in
// a layout Ferry has no sign of.
type SiteLayout struct {
	Aspect  string `json:"aspect"`
	Layout  string `json:"layout,omitempty"`
	Unknown bool   `json:"unknown,omitempty"`
}

// SiteInterstitial is what stands in the way on a site's page.
type SiteInterstitial struct {
	Kind     string    `json:"kind"`
	Code     errs.Code `json:"code,omitempty"`
	Message  string    `json:"message,omitempty"`
	Blocking bool      `json:"blocking"`
}

// SiteRoleCheck is one selector role of a site on its page: the selector
// of the list that matched (Matched is its index, -1 for none) or, for a
// role that resolves nowhere, the elements that look like it.
type SiteRoleCheck struct {
	Role   string     `json:"role"`
	Status RoleStatus `json:"status"`
	// Selectors are the role's list; Matched is the index of the first
	// that matches (-1 for none), MatchedSelector that selector.
	Selectors       []string `json:"selectors"`
	Matched         int      `json:"matched"`
	MatchedSelector string   `json:"matchedSelector,omitempty"`
	Count           int      `json:"count,omitempty"`
	// Invalid lists the selectors the browser cannot parse.
	Invalid    []string        `json:"invalid,omitempty"`
	Note       string          `json:"note,omitempty"`
	Candidates []SiteCandidate `json:"candidates,omitempty"`
	// Blocks is, for a missing role the site lists as optional, the
	// feature (model_selection, file_upload) that cannot work without it;
	// the site stays ok for plain asks.
	Blocks string `json:"blocks,omitempty"`
}

// SiteCandidate is an element that looks like a role that resolves
// nowhere: its selector and Override, the "sites" settings entry (JSON)
// that makes the role use it.
type SiteCandidate struct {
	Selector string `json:"selector"`
	Matches  int    `json:"matches"`
	Score    int    `json:"score"`
	Tag      string `json:"tag"`
	Role     string `json:"role,omitempty"`
	Label    string `json:"label,omitempty"`
	TestID   string `json:"testId,omitempty"`
	Text     string `json:"text,omitempty"`
	Override string `json:"override"`
}

// SiteStreamCheck is the passive check of the stream capture on the last
// turn; Override (a "sites" settings entry) fixes a missed stream.
type SiteStreamCheck struct {
	Status   StreamStatus `json:"status"`
	Pattern  string       `json:"pattern,omitempty"`
	Matched  string       `json:"matched,omitempty"`
	Seen     []string     `json:"seen,omitempty"`
	Detail   string       `json:"detail"`
	Override string       `json:"override,omitempty"`
}

// ApplySiteOverrideRequest adds Override, one "sites" settings entry (as a
// SiteCandidate's), to the settings: merged into the entry of the same
// site, or appended.
type ApplySiteOverrideRequest struct {
	Override string `json:"override"`
}

// Validate checks that there is an override. Errors: errs.BadInput.
func (r ApplySiteOverrideRequest) Validate() error {
	if strings.TrimSpace(r.Override) == "" {
		return errs.New(errs.BadInput, "no override to apply")
	}
	return nil
}
