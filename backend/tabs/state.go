package tabs

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/site"
)

// Readiness says whether a run could use a tab now.
type Readiness = record.TabReadiness

// The readiness of a tab, as the desktop's Tabs view shows it.
const (
	Ready        = record.TabReady        // on its site, logged in, nothing in the way
	NeedsLogin   = record.TabLogin        // on a login page or behind a login wall
	Interstitial = record.TabInterstitial // a check, a cap or an error page: Message says which
	Stale        = record.TabStale        // the tab did not answer the probe (hung, crashed or gone)
	Other        = record.TabOther        // not on a chat site Ferry knows
)

// tabProbeTimeout bounds the look at one tab: a hung page must not hold up
// the whole list.
const tabProbeTimeout = 3 * time.Second

// State is one tab of the browser with what a run would meet in it (the
// record the service shows).
type State = record.TabState

// States lists b's tabs with their site, conversation and readiness.
// Tabs on a known site are probed in place (a snapshot of the page run
// through the interstitial detector, never activating the tab or changing
// it); each probe is bounded, and a tab that does not answer is stale. It
// records what each look learned in l, and takes from l the state of a tab
// whose page cannot tell yet (still loading): a tab's state is what the
// last check or run learned of it. l may be nil. Errors:
// BrowserDisconnected when the connection is gone.
func States(ctx context.Context, b *browser.Browser, reg *site.Registry, l *Ledger) ([]State, error) {
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := make([]State, len(targets))
	open := make(map[string]bool, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		open[t.ID] = true
		out[i] = describeTarget(reg, t)
		if out[i].State != Ready {
			if out[i].State == NeedsLogin {
				l.learn(t.ID, learnedOf(out[i]))
			}
			continue
		}
		wg.Add(1)
		go func(ts *State) {
			defer wg.Done()
			if probeTab(ctx, b, reg, ts) {
				l.learn(ts.TargetID, learnedOf(*ts))
				return
			}
			l.couldNotTell(ts.TargetID)
			if last, ok := l.last(ts.TargetID); ok {
				last.apply(ts)
			}
		}(&out[i])
	}
	wg.Wait()
	l.forget(open)
	return out, nil
}

// describeTarget is what the address alone says about a tab: its site, its
// conversation, and whether it is a login page. Tabs it calls ready are
// then probed.
func describeTarget(reg *site.Registry, t browser.Target) State {
	ts := State{TargetID: t.ID, Title: t.Title, URL: site.Redact(t.URL), State: Other}
	s, ok := reg.ForURL(t.URL)
	if !ok {
		for _, cand := range reg.Sites() {
			if cand.IsLoginURL(t.URL) {
				ts.Site, ts.SiteName, ts.State = cand.ID, cand.Name, NeedsLogin
				ts.Message, ts.Code = cand.Name+" shows its login page", errs.LoginRequired
				ts.Hint = loginHint
				return ts
			}
		}
		return ts
	}
	ts.Site, ts.SiteName = s.ID, s.Name
	ts.Conversation = ConversationOf(s, t.URL)
	if s.IsLoginURL(t.URL) {
		ts.State, ts.Code = NeedsLogin, errs.LoginRequired
		ts.Message, ts.Hint = s.Name+" shows its login page", loginHint
		return ts
	}
	ts.State = Ready
	return ts
}

// ConversationOf is the path of rawURL below the address of site s (such
// as "c/6823…"); "" on the site's start page.
func ConversationOf(s site.Site, rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	base, err := url.Parse(s.Address)
	if err != nil {
		return ""
	}
	rest := strings.TrimPrefix(u.Path, strings.TrimSuffix(base.Path, "/"))
	return strings.Trim(rest, "/")
}

// probeTab runs the interstitial detector on the tab, then looks for a
// logged-in account as a run's readiness check does, and records what it
// found in ts; known is false when the page could not tell yet (it is
// still loading), leaving ts ready.
func probeTab(ctx context.Context, b *browser.Browser, reg *site.Registry, ts *State) (known bool) {
	s, err := reg.Get(ts.Site)
	if err != nil {
		return false
	}
	pctx, cancel := context.WithTimeout(ctx, tabProbeTimeout)
	defer cancel()
	stale := func(err error) {
		ts.State, ts.Code = Stale, errs.CodeOf(err)
		ts.Message = "the tab does not answer: " + errs.From(err).Message
		ts.Hint = "reload the tab in the browser window or close it; runs will not use it until it answers"
	}
	p, err := b.Page(pctx, ts.TargetID)
	if err != nil {
		stale(err)
		return true
	}
	web, err := provider.NewWeb(provider.Env{Page: p, Site: s, Sites: reg})
	if err != nil {
		stale(err)
		return true
	}
	r, err := web.Interstitial(pctx)
	if err != nil {
		stale(err)
		return true
	}
	if r.Found() && r.Code != "" && (r.Blocking || r.Terminal) {
		ts.Code, ts.Message = r.Code, r.Message
		if r.Kind == interstitial.LoginWall || r.Kind == interstitial.SessionExpired {
			ts.State, ts.Hint = NeedsLogin, loginHint
			return true
		}
		ts.State = Interstitial
		ts.Hint = "solve it in the browser window (Show brings the tab forward); a run started now would stop at it"
		return true
	}
	in, known, err := web.SignedIn(pctx)
	if err != nil || !known {
		return false
	}
	if !in {
		ts.State, ts.Code, ts.Hint = NeedsLogin, errs.LoginRequired, loginHint
		ts.Message = s.Name + " shows no logged-in account"
	}
	return true
}
