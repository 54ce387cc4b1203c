package jobs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

// ListTabs lists the tabs of the long-lived browser (Options.Browser, or
// Options.Source's, connecting it if needed), each with the site its
// address belongs to and its address redacted (site.Redact). Without
// either (the owner launches a browser per run) there is nothing to list:
// an empty list. Errors: the source's envelopes; BrowserDisconnected.
func (h *Runner) ListTabs(ctx context.Context) ([]service.Tab, error) {
	b, err := h.browserFor(ctx)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return []service.Tab{}, nil
	}
	reg, err := h.pipe.Sites()
	if err != nil {
		return nil, err
	}
	targets, err := b.Targets(ctx, func(host string) string {
		if s, ok := reg.ForHost(host); ok {
			return s.ID
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	out := make([]service.Tab, 0, len(targets))
	for _, t := range targets {
		// Addresses without query, fragment and userinfo, where sites put
		// one-off tokens: agents read this list too.
		out = append(out, service.Tab{TargetID: t.ID, Site: t.Site, URL: site.Redact(t.URL), Title: t.Title})
	}
	return out, nil
}

// HasBrowser reports whether jobs run in a long-lived browser (fixed or
// from a source), so that ListTabs can list tabs.
func (h *Runner) HasBrowser() bool { return h.browser != nil || h.source != nil }
