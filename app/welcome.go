package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/service"
)

// openLoginTimeout bounds opening a login page, the browser's start
// included.
const openLoginTimeout = time.Minute

// Welcome is the frontend's API for the Get started view: whether the
// window opens on it, each site's login, and "Log in".
type Welcome struct {
	sh *shell
}

// State says whether the window opens on Get started (no site ever used,
// the view not dismissed) and whether a site is logged in (the sidebar's
// badge). Errors: why the core is not open; the store's.
func (w *Welcome) State() (service.Welcome, error) {
	var out service.Welcome
	err := w.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.Welcome(context.Background(), desktopCaller, service.WelcomeRequest{})
		return err
	})
	return out, err
}

// Logins reads each site's login in the tabs of Ferry's browser, without
// starting it (no_browser then, for the sites not seen logged in before).
// Errors: browser_disconnected when the browser went away meanwhile;
// config_invalid for a bad site override.
func (w *Welcome) Logins() ([]service.SiteLogin, error) {
	out := []service.SiteLogin{}
	err := w.sh.withService(func(svc service.Service) error {
		l, err := svc.SiteLogins(w.sh.calls, desktopCaller, service.SiteLoginsRequest{})
		if l != nil {
			out = l
		}
		return err
	})
	return out, err
}

// OpenLogin opens the site's login page in Ferry's browser (starting it),
// in front, and returns the site's login (checking). Errors: unknown_site;
// capability_missing for a headless browser; the browser's envelopes
// (browser_not_found, browser_launch_failed, navigation_aborted, timeout).
func (w *Welcome) OpenLogin(siteID string) (service.SiteLogin, error) {
	var out service.SiteLogin
	err := w.sh.withService(func(svc service.Service) error {
		ctx, cancel := context.WithTimeout(context.Background(), openLoginTimeout)
		defer cancel()
		var err error
		out, err = svc.OpenLogin(ctx, desktopCaller, service.OpenLoginRequest{Site: siteID})
		return err
	})
	return out, err
}

// Dismiss records that the user left Get started, so the window no longer
// opens on it, and tells the window the settings changed. Errors: the
// settings file's write errors.
func (w *Welcome) Dismiss() (service.Welcome, error) {
	err := w.sh.withService(func(svc service.Service) error {
		s, err := svc.DismissWelcome(context.Background(), desktopCaller, service.DismissWelcomeRequest{})
		if err == nil {
			w.sh.emitter().Emit(EventSettingsChanged, s)
		}
		return err
	})
	if err != nil {
		return service.Welcome{}, err
	}
	return w.State()
}
