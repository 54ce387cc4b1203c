package service

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// WelcomeRequest asks whether the desktop opens on its Get started view.
type WelcomeRequest struct{}

// Validate accepts every request.
func (WelcomeRequest) Validate() error { return nil }

// Welcome is what the desktop needs to decide on its Get started view at
// start and on the sidebar's badge.
type Welcome struct {
	// Show says the window opens on Get started: no site was ever used
	// (Used is false) and the user has not dismissed the view.
	Show bool `json:"show"`
	// Used says a site was used: a run was recorded, or Ferry saw a user
	// logged in to a site.
	Used bool `json:"used"`
	// LoggedIn says a site is logged in, as Ferry last saw its tabs.
	LoggedIn bool `json:"loggedIn"`
	// Dismissed says the user left the view ("Skip", "Continue to Ferry"):
	// it then opens only when asked for.
	Dismissed bool `json:"dismissed"`
}

// SiteLoginsRequest reads the login of every site in the owner's browser.
type SiteLoginsRequest struct{}

// Validate accepts every request.
func (SiteLoginsRequest) Validate() error { return nil }

// The login of a site, as SiteLogin.State.
const (
	LoginLoggedOut  = "logged_out"  // its tabs show its login page or wall, or it has none and was seen logged out last
	LoginNotChecked = "not_checked" // no tab of it is open and it was never seen logged in: nothing was read yet
	LoginChecking   = "checking"    // a tab of it is loading or shows something else
	LoginLoggedIn   = "logged_in"   // a tab of it shows a logged-in user (or did when last seen)
	LoginNoBrowser  = "no_browser"  // the owner's browser is not running: nothing can be read
)

// SiteLogin is a site of the registry with whether a user is logged in to
// it in the owner's browser.
type SiteLogin struct {
	Site    string `json:"site"`
	Name    string `json:"name"`
	Address string `json:"address"`
	State   string `json:"state"`
	// TargetID is the tab the state was read in ("" when none was).
	TargetID string `json:"targetId,omitempty"`
}

// OpenLoginRequest opens Site's login page in the owner's browser, in
// front.
type OpenLoginRequest struct {
	Site string `json:"site"`
}

// Validate checks the request. Errors: errs.BadInput for no site.
func (r OpenLoginRequest) Validate() error {
	if strings.TrimSpace(r.Site) == "" {
		return errs.New(errs.BadInput, "logging in needs a site").WithHint("name the site by its id, e.g. chatgpt")
	}
	return nil
}

// DismissWelcomeRequest records that the user left the Get started view.
type DismissWelcomeRequest struct{}

// Validate accepts every request.
func (DismissWelcomeRequest) Validate() error { return nil }
