package core

import (
	"context"
	"errors"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/logins"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
)

// siteLoginsTimeout bounds a reading of every site's login (each tab's is
// bounded too).
const siteLoginsTimeout = 10 * time.Second

// Welcome says whether the desktop opens on Get started: no run was ever
// recorded and no site was ever seen logged in (Used false), and the user
// has not dismissed the view. With the owner's browser connected it reads
// the sites' tabs first, so a login done meanwhile counts. Errors:
// errs.HubForbidden for an agent; the store's envelopes; errs.ConfigInvalid
// for a bad site override.
func (s *Service) Welcome(ctx context.Context, c service.Caller, req service.WelcomeRequest) (service.Welcome, error) {
	if err := admit(c, "see the Get started view", req); err != nil {
		return service.Welcome{}, err
	}
	live, err := s.siteLogins(ctx)
	if err != nil && !errs.Has(err, errs.BrowserDisconnected) {
		return service.Welcome{}, err
	}
	seen, err := logins.EverLoggedIn(s.c.Store())
	if err != nil {
		return service.Welcome{}, err
	}
	runs, err := s.c.hasRuns()
	if err != nil {
		return service.Welcome{}, err
	}
	w := service.Welcome{Used: runs || seen, Dismissed: s.c.Settings().WelcomeDismissed}
	for _, l := range live {
		w.LoggedIn = w.LoggedIn || l.State == service.LoginLoggedIn
	}
	w.Show = !w.Used && !w.Dismissed
	return w, nil
}

// SiteLogins reads each site's login in the tabs of the owner's browser
// without starting it (service.LoginNoBrowser for the sites not seen
// logged in before, when it is not connected). Errors: errs.HubForbidden
// for an agent; errs.HubNotRunning without an owner's browser;
// errs.BrowserDisconnected when it went away meanwhile; the store's
// envelopes; errs.ConfigInvalid for a bad site override.
func (s *Service) SiteLogins(ctx context.Context, c service.Caller, req service.SiteLoginsRequest) ([]service.SiteLogin, error) {
	if err := admit(c, "see the sites' logins", req); err != nil {
		return nil, err
	}
	return s.siteLogins(ctx)
}

// siteLogins reads the logins in the owner's browser when it is connected,
// else from the records (also without an owner's browser at all).
func (s *Service) siteLogins(ctx context.Context) ([]service.SiteLogin, error) {
	reg, err := s.c.sites()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, siteLoginsTimeout)
	defer cancel()
	if s.browser == nil {
		return logins.Read(ctx, s.c.Store(), nil, reg)
	}
	return logins.Read(ctx, s.c.Store(), s.browser.Current(), reg)
}

// OpenLogin opens the site's login page in the owner's browser, starting
// it if needed, in the tab already on it or a new one, and brings that tab
// and its window to the front, because the user asked to log in. Errors:
// errs.HubForbidden for an agent; errs.HubNotRunning without an owner's
// browser; errs.UnknownSite; errs.CapabilityMissing when Ferry's browser
// runs headless (there is no window to log in in); the browser's
// envelopes (BrowserNotFound, BrowserLaunchFailed, NavigationAborted,
// Timeout).
func (s *Service) OpenLogin(ctx context.Context, c service.Caller, req service.OpenLoginRequest) (service.SiteLogin, error) {
	if err := admit(c, "open a login page", req); err != nil {
		return service.SiteLogin{}, err
	}
	ob, err := s.ownerBrowser()
	if err != nil {
		return service.SiteLogin{}, err
	}
	reg, err := s.c.sites()
	if err != nil {
		return service.SiteLogin{}, err
	}
	st, err := reg.Get(req.Site)
	if err != nil {
		return service.SiteLogin{}, err
	}
	// Checked before the browser starts: a headless one would start for
	// nothing the user could see.
	if bs := ob.State(); bs.Mode == "launch" && bs.Headless {
		return service.SiteLogin{}, errs.New(errs.CapabilityMissing, "Ferry's browser runs without a window, so there is no page to log in to %s in", st.Name).
			WithEvidence("site", st.ID).
			WithHint("turn off Headless in Settings → Browser, then log in")
	}
	b, err := ob.Get(ctx)
	if err != nil {
		return service.SiteLogin{}, err
	}
	p, err := logins.Open(ctx, b, st)
	if err != nil {
		return service.SiteLogin{}, err
	}
	return service.SiteLogin{Site: st.ID, Name: st.Name, Address: st.Address, State: service.LoginChecking, TargetID: p.ID()}, nil
}

// DismissWelcome saves settings.welcomeDismissed, so the window no longer
// opens on Get started, and returns the settings in force. Errors:
// errs.HubForbidden for an agent; the settings file's write errors.
func (s *Service) DismissWelcome(ctx context.Context, c service.Caller, req service.DismissWelcomeRequest) (config.Settings, error) {
	if err := admit(c, "change the settings", req); err != nil {
		return config.Settings{}, err
	}
	next := s.c.Settings()
	if next.WelcomeDismissed {
		return next, nil
	}
	next.WelcomeDismissed = true
	if err := s.c.saveSettings(next); err != nil {
		return config.Settings{}, err
	}
	return s.c.Settings(), nil
}

// hasRuns reports whether any run was ever recorded. Errors: the store's
// envelopes.
func (c *Core) hasRuns() (bool, error) {
	st := c.Store()
	if st == nil {
		return false, errs.New(errs.Internal, "the store is closed").WithHint("open the data directory again")
	}
	found := false
	err := st.Scan(store.PrefixSessIdx, func(_, _ []byte) error {
		found = true
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return false, err
	}
	return found, nil
}

// errStop ends a store scan early.
var errStop = errors.New("stop the scan")
