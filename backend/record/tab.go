package record

import "github.com/ferrydesk/ferry/backend/errs"

// TabState is one tab of the browser with what a run would meet in it.
type TabState struct {
	TargetID string `json:"targetId"`
	Site     string `json:"site,omitempty"`
	SiteName string `json:"siteName,omitempty"`
	Title    string `json:"title"`
	// URL is the tab's address without query, fragment or userinfo.
	URL string `json:"url"`
	// Conversation is the part of the address after the site's own (such
	// as "c/6823…"); "" on the site's start page, a new chat.
	Conversation string       `json:"conversation,omitempty"`
	State        TabReadiness `json:"state"`
	// Message and Code describe what stands in the way (interstitial,
	// login, stale); Hint says what the user can do.
	Message string    `json:"message,omitempty"`
	Code    errs.Code `json:"code,omitempty"`
	Hint    string    `json:"hint,omitempty"`
}

// TabReadiness says whether a run could use a tab now.
type TabReadiness string

// The readiness of a tab, as the desktop's Tabs view shows it.
const (
	TabReady        TabReadiness = "ready"        // on its site, logged in, nothing in the way
	TabLogin        TabReadiness = "login"        // on a login page or behind a login wall
	TabInterstitial TabReadiness = "interstitial" // a check, a cap or an error page: Message says which
	TabStale        TabReadiness = "stale"        // the tab did not answer the probe (hung, crashed or gone)
	TabOther        TabReadiness = "other"        // not on a chat site Ferry knows
)
