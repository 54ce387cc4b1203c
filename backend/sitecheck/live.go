package sitecheck

import (
	"context"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// siteCheckTimeout bounds the check of one site (opening its tab
// included); siteChecksAtOnce is how many sites are checked at a time.
const (
	siteCheckTimeout = 45 * time.Second
	siteChecksAtOnce = 3
)

// Live checks the sites ids of reg in b, each in an open tab of
// the site (one with a conversation first) or, when it has none, in a tab
// it opens in the background on the site's new-chat address, leased in l
// while it is checked. Nothing is
// typed, clicked or navigated in a tab the check did not open; a tab it
// opened is closed again when the site is ok, and left open for the user
// (to log in, to look) when it is not. A site whose tab cannot be found or
// read is a report with an Error. Errors: UnknownSite (before any tab is
// touched).
func Live(ctx context.Context, l *tabs.Leases, b *browser.Browser, reg *site.Registry, ids []string) (Report, error) {
	for _, id := range ids {
		if _, err := reg.Get(id); err != nil {
			return Report{}, err
		}
	}
	out := make([]SiteReport, len(ids))
	sem := make(chan struct{}, siteChecksAtOnce)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = checkLive(ctx, l, b, reg, id)
		}()
	}
	wg.Wait()
	return newReport(out), nil
}

func checkLive(ctx context.Context, l *tabs.Leases, b *browser.Browser, reg *site.Registry, id string) SiteReport {
	s, _ := reg.Get(id)
	ctx, cancel := context.WithTimeout(ctx, siteCheckTimeout)
	defer cancel()
	p, opened, err := checkTab(ctx, l, b, reg, s)
	if err != nil {
		return failed(s, nil, err)
	}
	rep := Check(ctx, p, s, reg)
	rep.Opened = opened
	if !opened {
		// The session with a tab the check found is shared with whoever
		// else drives it (a run): detaching would end theirs too.
		return rep
	}
	dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer dcancel()
	if rep.OK {
		_ = p.Close(dctx)
		return rep
	}
	_ = p.Detach(dctx)
	return rep
}

// checkTab is the tab to check site s in: an open tab of the site (on
// a conversation first, where the thread's roles show), else a new one.
func checkTab(ctx context.Context, l *tabs.Leases, b *browser.Browser, reg *site.Registry, s site.Site) (*browser.Page, bool, error) {
	targets, err := b.Targets(ctx, func(host string) string {
		if hs, ok := reg.ForHost(host); ok {
			return hs.ID
		}
		return ""
	})
	if err != nil {
		return nil, false, err
	}
	var best *browser.Target
	for i, t := range targets {
		if !s.Allows(t.URL) && !s.IsLoginURL(t.URL) {
			continue
		}
		if best == nil || tabs.ConversationOf(s, best.URL) == "" && tabs.ConversationOf(s, t.URL) != "" {
			best = &targets[i]
		}
	}
	if best != nil {
		p, err := b.Page(ctx, best.ID)
		return p, false, err
	}
	p, _, err := l.OpenSite(ctx, tabs.Run{}, b, reg, s.ID)
	return p, err == nil, err
}
