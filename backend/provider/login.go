package provider

import (
	"context"

	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Login is what a tab shows of a user's login to its site.
type Login string

// The logins a tab can show, as (*Web).Login reads them.
const (
	LoginUnknown   Login = "unknown"    // still loading, or something else stands in the way
	LoginLoggedOut Login = "logged_out" // the site's login page, or its login wall
	LoginLoggedIn  Login = "logged_in"  // the site's logged-in marker, and no login wall
)

// Login reads once whether a user is logged in to the tab's site, as Ready
// judges it before a run: the site's login pages and a login wall or an
// expired session (the interstitial detector) are LoginLoggedOut; the
// site's logged-in marker (or a site that has none) with its composer and
// nothing blocking is LoginLoggedIn; a tab still loading, on another
// address or behind another interstitial is LoginUnknown. It reads the
// page only: nothing is clicked, typed or activated. Errors: the page's
// envelopes (TargetNotFound, TargetCrashed, BrowserDisconnected, Timeout,
// Cancelled).
func (w *Web) Login(ctx context.Context) (Login, error) {
	info, err := w.Page.Info(ctx)
	if err != nil {
		return LoginUnknown, err
	}
	if loading(info.URL) {
		return LoginUnknown, nil
	}
	if w.Env.Site.IsLoginURL(info.URL) {
		return LoginLoggedOut, nil
	}
	if !w.Env.Site.Allows(info.URL) {
		return LoginUnknown, nil
	}
	r, err := w.Interstitial(ctx)
	if err != nil {
		return LoginUnknown, err
	}
	if r.Kind == interstitial.LoginWall || r.Kind == interstitial.SessionExpired {
		return LoginLoggedOut, nil
	}
	if r.Blocking {
		return LoginUnknown, nil
	}
	st, err := w.state(ctx)
	if err != nil {
		return LoginUnknown, err
	}
	if st.LoggedIn && st.Composer >= 0 && st.Ready {
		return LoginLoggedIn, nil
	}
	return LoginUnknown, nil
}
