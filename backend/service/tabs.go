package service

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Tab is a browser tab Ferry can drive: its CDP TargetID, the site its
// address belongs to ("" for none) and its address redacted. State is
// "login" for a tab on one of a site's login pages, filled when the
// request named its browser (ListTabsRequest.Browser).
type Tab struct {
	TargetID string `json:"targetId"`
	Site     string `json:"site,omitempty"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	State    string `json:"state,omitempty"`
}

// ListTabsRequest lists the tabs of Browser: nil is the implementation's
// long-lived browser (none: no tabs); BrowserOwn is that browser, else
// Ferry's own running browser; BrowserAttach the browser at its address;
// BrowserLaunch a browser launched for this request and quit after it.
// With a Browser (the owner's only), each tab's site is the one whose
// address holds it, else the one site whose login pages do, and its State
// says "login".
type ListTabsRequest struct {
	Browser *BrowserSpec `json:"browser,omitempty"`
}

// Validate checks the request. Errors: errs.BadInput for an invalid
// browser or a browser address that is not loopback.
func (r ListTabsRequest) Validate() error {
	if r.Browser == nil {
		return nil
	}
	if err := r.Browser.Validate(); err != nil {
		return err
	}
	return CheckBrowserURL(r.Browser.URL)
}

// OpenTabRequest opens Site in a new background tab of the browser at
// BrowserURL, else the implementation's, within TimeoutMs (0: no bound of
// its own).
type OpenTabRequest struct {
	Site       string `json:"site"`
	BrowserURL string `json:"browserUrl,omitempty"`
	TimeoutMs  int64  `json:"timeoutMs,omitempty"`
}

// Validate checks the request. Errors: errs.BadInput for no site, a
// negative timeout or a browser address that is not loopback.
func (r OpenTabRequest) Validate() error {
	if strings.TrimSpace(r.Site) == "" {
		return errs.New(errs.BadInput, "opening a tab needs a site").WithHint("name the site by its id, e.g. chatgpt, gemini, aistudio, grok, claude, kimi or deepseek")
	}
	if r.TimeoutMs < 0 {
		return errs.New(errs.BadInput, "timeoutMs must be positive, got %d", r.TimeoutMs).WithHint("leave it out for no bound")
	}
	return CheckBrowserURL(r.BrowserURL)
}
