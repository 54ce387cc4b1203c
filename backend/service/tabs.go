package service

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Tab is a browser tab Ferry can drive: its CDP TargetID, the site its
// address belongs to ("" for none) and its address redacted.
type Tab struct {
	TargetID string `json:"targetId"`
	Site     string `json:"site,omitempty"`
	URL      string `json:"url"`
	Title    string `json:"title"`
}

// ListTabsRequest lists the tabs of the implementation's browser.
type ListTabsRequest struct{}

// Validate accepts every request.
func (ListTabsRequest) Validate() error { return nil }

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
		return errs.New(errs.BadInput, "opening a tab needs a site").WithHint("name the site, e.g. chatgpt (`ferry sites` lists them)")
	}
	if r.TimeoutMs < 0 {
		return errs.New(errs.BadInput, "timeoutMs must be positive, got %d", r.TimeoutMs).WithHint("leave it out for no bound")
	}
	return CheckBrowserURL(r.BrowserURL)
}
