package provider

import "github.com/ferrydesk/ferry/backend/errs"

// SessionCheckFailed is the envelope of a login check (a request in the
// page to the site's session endpoint) that got no answer, err being why.
// A failure of the tab or the browser itself (the tab closed, detached or
// crashed, the browser gone, a navigation, the deadline or a cancel) is
// returned as it is: it says nothing about the login, and calling it
// LoginRequired would send the user to log in while the tab is the
// problem. Any other failure is LoginRequired, what names what was read.
func SessionCheckFailed(err error, what string) error {
	switch errs.CodeOf(err) {
	case errs.TargetNotFound, errs.TargetCrashed, errs.BrowserDisconnected, errs.NavigationAborted,
		errs.Timeout, errs.Cancelled:
		return err
	}
	return errs.Wrap(err, errs.LoginRequired, "read %s: %v", what, errs.CodeOf(err)).WithStage(errs.StageSession)
}
