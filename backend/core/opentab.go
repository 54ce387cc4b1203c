package core

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/site"
)

// OpenSiteTab opens a new background tab on the new-chat address of site
// siteID (its address when it has none) and waits for the page to load. It
// never reuses an open tab: this is how a run asked for a fresh chat avoids
// the ambiguity of several open tabs, and what `ferry open` does. The tab
// is left open when the page fails to load (the user may want to see why).
// Errors: UnknownSite; the browser's envelopes (BrowserDisconnected,
// NavigationAborted, Timeout when ctx ends first).
func OpenSiteTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID string) (*browser.Page, site.Site, error) {
	s, err := reg.Get(siteID)
	if err != nil {
		return nil, site.Site{}, err
	}
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		return nil, site.Site{}, err
	}
	start := s.NewChat
	if start == "" {
		start = s.Address
	}
	if err := p.Navigate(ctx, start); err != nil {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.Detach(dctx)
		return nil, site.Site{}, err
	}
	return p, s, nil
}
