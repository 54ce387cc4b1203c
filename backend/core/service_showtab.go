package core

import (
	"context"
	"net/url"
	"strings"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// ShowRunTab shows the tab of run req.ID's conversation in the owner's
// browser, connecting it first: the tab the run used when it still shows
// the conversation, else any tab that shows it, else a new tab opened on
// it; that tab comes to the front and its window up. Errors:
// errs.HubForbidden for an agent; errs.SessionNotFound; errs.TargetNotFound
// for a run that has no conversation address and whose tab is gone; the
// browser's envelopes.
func (s *Service) ShowRunTab(ctx context.Context, c service.Caller, req service.SessionRef) (service.TabState, error) {
	if err := admit(c, "show a run's tab", req); err != nil {
		return service.TabState{}, err
	}
	v, err := s.h.ShowSession(ctx, req.ID)
	if err != nil {
		return service.TabState{}, err
	}
	if v.Detail == nil || v.Detail.Session == nil {
		return service.TabState{}, errs.New(errs.StoreCorrupt, "read run %s: it carries no record", req.ID)
	}
	run := v.Detail.Session
	ob, err := s.ownerBrowser()
	if err != nil {
		return service.TabState{}, err
	}
	b, err := ob.Get(ctx)
	if err != nil {
		return service.TabState{}, err
	}
	targets, err := b.Targets(ctx, nil)
	if err != nil {
		return service.TabState{}, err
	}
	// The run's own tab may still show its new chat's transient address
	// (ChatGPT's /c/WEB:…) while the run names the lasting one.
	transient := func(string) bool { return false }
	if reg, rerr := s.c.sites(); rerr == nil {
		if st, gerr := reg.Get(run.Site); gerr == nil {
			transient = func(u string) bool { _, tr := st.Conversation(u); return tr }
		}
	}
	t, ok := runTab(targets, run.TargetID, run.ConversationURL, transient)
	if !ok {
		if run.ConversationURL == "" {
			return service.TabState{}, errs.New(errs.TargetNotFound, "the tab of run %s is closed and the run has no conversation address", run.ID).
				WithHint("send to the site again, or open the conversation from the site's own list")
		}
		p, err := b.OpenTab(ctx, run.ConversationURL)
		if err != nil {
			return service.TabState{}, err
		}
		t = browser.Target{ID: p.ID(), URL: run.ConversationURL}
	}
	if err := b.ShowTab(ctx, t.ID); err != nil {
		return service.TabState{}, err
	}
	return service.TabState{TargetID: t.ID, Site: run.Site, Title: t.Title, URL: t.URL}, nil
}

// runTab is the tab to show for a run: its own while it shows the
// conversation (or while the run has no conversation address, or while the
// tab still shows a new chat's transient address), else the first that
// shows the conversation.
func runTab(targets []browser.Target, own, conv string, transient func(string) bool) (browser.Target, bool) {
	for _, t := range targets {
		if t.ID == own && (conv == "" || sameAddress(t.URL, conv) || transient(t.URL)) {
			return t, true
		}
	}
	if conv == "" {
		return browser.Target{}, false
	}
	for _, t := range targets {
		if sameAddress(t.URL, conv) {
			return t, true
		}
	}
	return browser.Target{}, false
}

// sameAddress reports whether two addresses name the same page (host and
// path; query and fragment aside).
func sameAddress(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return false
	}
	return strings.EqualFold(ua.Host, ub.Host) && strings.TrimSuffix(ua.Path, "/") == strings.TrimSuffix(ub.Path, "/")
}
