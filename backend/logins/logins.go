// Package logins is what Ferry saw of each site's login, for the desktop's
// Get started view: the record kept in the store (login/<site>), so that
// the decision at the next start, when no browser runs yet, still knows
// that a site was used (a site seen logged in once is used for good, even
// when it is logged out later); the reading of each site's login in the
// tabs of a browser; and the opening of a site's login page.
package logins

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
)

// record is the value of login/<site>.
type record struct {
	LoggedIn bool `json:"loggedIn"`
	// FirstSeen is when Ferry first saw a user logged in to the site.
	FirstSeen time.Time `json:"firstSeen"`
	// Changed is when LoggedIn last changed.
	Changed time.Time `json:"changed"`
}

// records reads every site's login record from st, by site id. Errors:
// the store's envelopes; errs.Internal for a closed store (nil).
func records(st *store.Store) (map[string]record, error) {
	if st == nil {
		return nil, errs.New(errs.Internal, "the store is closed").WithHint("open the data directory again")
	}
	out := map[string]record{}
	err := st.Scan(store.PrefixLogin, func(key, val []byte) error {
		var r record
		if json.Unmarshal(val, &r) == nil {
			out[strings.TrimPrefix(string(key), string(store.PrefixLogin))] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EverLoggedIn reports whether Ferry ever saw a user logged in to one of
// the sites (the records of st). Errors: as Read.
func EverLoggedIn(st *store.Store) (bool, error) {
	recs, err := records(st)
	if err != nil {
		return false, err
	}
	for _, r := range recs {
		if !r.FirstSeen.IsZero() {
			return true, nil
		}
	}
	return false, nil
}

// note records in st what a tab showed of site's login, writing only when
// it changed: a user seen logged in (loggedIn) or logged out of a site seen
// logged in before. Errors: the store's envelopes (disk_full among them).
func note(st *store.Store, site string, loggedIn bool, was record, known bool) error {
	if known && was.LoggedIn == loggedIn || !known && !loggedIn {
		return nil
	}
	now := time.Now().UTC()
	rec := record{LoggedIn: loggedIn, FirstSeen: was.FirstSeen, Changed: now}
	if rec.FirstSeen.IsZero() && loggedIn {
		rec.FirstSeen = now
	}
	val, err := json.Marshal(rec)
	if err != nil {
		return errs.Wrap(err, errs.Internal, "encode the login record: %v", err)
	}
	if store.ValidID(site) != nil {
		return nil // a user's site id the store cannot key: not remembered
	}
	return st.Put(store.LoginKey(site), val)
}

// loginProbeTimeout bounds the reading of one tab's login, as a hung page
// must not hold up the view.
const loginProbeTimeout = 3 * time.Second

// Read reads the login of every site of reg: in b's tabs when b is not nil
// (recording in st what they show), else from st's records alone. A site
// with no tab is logged in or out as it was when last seen, and not
// checked when it was never seen logged in;
// with tabs, logged in when one of them shows it, logged out when all show
// its login, else checking. Errors: BrowserDisconnected when b went away;
// the store's envelopes.
func Read(ctx context.Context, st *store.Store, b *browser.Browser, reg *site.Registry) ([]service.SiteLogin, error) {
	recs, err := records(st)
	if err != nil {
		return nil, err
	}
	sites := reg.Sites()
	out := make([]service.SiteLogin, len(sites))
	for i, s := range sites {
		out[i] = service.SiteLogin{Site: s.ID, Name: s.Name, Address: s.Address, State: service.LoginNotChecked}
		switch rec, known := recs[s.ID]; {
		case rec.LoggedIn:
			out[i].State = service.LoginLoggedIn
		case b == nil:
			out[i].State = service.LoginNoBrowser
		case known:
			out[i].State = service.LoginLoggedOut
		}
	}
	if b == nil {
		return out, nil
	}
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return nil, err
	}
	seen := probeLogins(ctx, b, reg, sites, targets)
	for i, s := range sites {
		tabs := seen[s.ID]
		if len(tabs) == 0 {
			continue
		}
		rec, known := recs[s.ID]
		state, tab := judgeLogins(tabs)
		out[i].State, out[i].TargetID = state, tab
		switch state {
		case service.LoginLoggedIn:
			// Best effort: a store that refuses the write (a full disk)
			// costs only the memory of this login at the next start.
			_ = note(st, s.ID, true, rec, known)
		case service.LoginLoggedOut:
			_ = note(st, s.ID, false, rec, known)
		}
	}
	return out, nil
}

// tabLogin is what one tab showed of its site's login.
type tabLogin struct {
	target string
	login  provider.Login
}

// probeLogins reads, in parallel and each bounded, the login shown by every
// tab of targets that is on one of sites (or on its login page), by site id.
func probeLogins(ctx context.Context, b *browser.Browser, reg *site.Registry, sites []site.Site, targets []browser.Target) map[string][]tabLogin {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out = map[string][]tabLogin{}
	)
	for _, t := range targets {
		s, ok := siteOfTab(reg, sites, t.URL)
		if !ok {
			continue
		}
		wg.Add(1)
		go func(t browser.Target, s site.Site) {
			defer wg.Done()
			l := readLogin(ctx, b, reg, s, t)
			mu.Lock()
			out[s.ID] = append(out[s.ID], tabLogin{target: t.ID, login: l})
			mu.Unlock()
		}(t, s)
	}
	wg.Wait()
	return out
}

// siteOfTab is the site whose address holds rawURL, else the one whose
// login pages do.
func siteOfTab(reg *site.Registry, sites []site.Site, rawURL string) (site.Site, bool) {
	if s, ok := reg.ForURL(rawURL); ok {
		return s, true
	}
	for _, s := range sites {
		if s.IsLoginURL(rawURL) {
			return s, true
		}
	}
	return site.Site{}, false
}

// readLogin reads the login t shows of s; a tab that does not answer shows
// nothing known.
func readLogin(ctx context.Context, b *browser.Browser, reg *site.Registry, s site.Site, t browser.Target) provider.Login {
	if s.IsLoginURL(t.URL) {
		return provider.LoginLoggedOut
	}
	pctx, cancel := context.WithTimeout(ctx, loginProbeTimeout)
	defer cancel()
	p, err := b.Page(pctx, t.ID)
	if err != nil {
		return provider.LoginUnknown
	}
	web, err := provider.NewWeb(provider.Env{Page: p, Site: s, Sites: reg})
	if err != nil {
		return provider.LoginUnknown
	}
	l, err := web.Login(pctx)
	if err != nil {
		return provider.LoginUnknown
	}
	return l
}

// judgeLogins is a site's login from its tabs: logged in when one shows a
// user, logged out when all show the login, else checking; tab is the tab
// that decided (the first one otherwise).
func judgeLogins(tabs []tabLogin) (state, tab string) {
	out := 0
	for _, t := range tabs {
		switch t.login {
		case provider.LoginLoggedIn:
			return service.LoginLoggedIn, t.target
		case provider.LoginLoggedOut:
			out++
		}
	}
	if out == len(tabs) {
		return service.LoginLoggedOut, tabs[0].target
	}
	return service.LoginChecking, tabs[0].target
}

// Open shows s's login page in b, in front: the tab already on one of
// its login pages, else a new tab loaded with it. Errors: the browser's
// envelopes (BrowserDisconnected, NavigationAborted, Timeout when ctx ends
// first).
func Open(ctx context.Context, b *browser.Browser, s site.Site) (*browser.Page, error) {
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return nil, err
	}
	var p *browser.Page
	for _, t := range targets {
		if s.IsLoginURL(t.URL) {
			if p, err = b.Page(ctx, t.ID); err == nil {
				break
			}
		}
	}
	if p == nil {
		if p, err = b.OpenTab(ctx, "about:blank"); err != nil {
			return nil, err
		}
		if err := p.Navigate(ctx, Address(s)); err != nil {
			return nil, err
		}
	}
	if err := b.ShowTab(ctx, p.ID()); err != nil {
		return nil, err
	}
	return p, nil
}

// Address is where site st shows its login page: its first login
// path under its address, else its start page (which offers the login to
// a logged-out user).
func Address(st site.Site) string {
	if len(st.LoginPaths) > 0 {
		if base, err := url.Parse(st.Address); err == nil {
			if ref, err := url.Parse(st.LoginPaths[0]); err == nil {
				return base.ResolveReference(ref).String()
			}
		}
	}
	if st.NewChat != "" {
		return st.NewChat
	}
	return st.Address
}
