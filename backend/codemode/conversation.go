package codemode

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// convIDRe is the conversation id shape the sandbox's adapter accepts;
// checked early so that a bad id fails before the browser is touched.
var convIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

// CheckConvID refuses an id that is not a ChatGPT conversation id, with a
// BadInput envelope naming the --conv flag.
func CheckConvID(id string) error {
	if !convIDRe.MatchString(id) {
		return errs.New(errs.BadInput, "--conv %q is not a ChatGPT conversation id", id).
			WithHint("pass the <id> of the conversation's address https://chatgpt.com/c/<id>")
	}
	return nil
}

// sourceOf is the adapter of page and its sandbox: the adapter must be a
// provider.ArtifactSource. Errors: CapabilityMissing for a tab whose
// adapter has none; the registry's envelopes.
func sourceOf(page *browser.Page, s site.Site, reg *site.Registry) (provider.Adapter, provider.ArtifactSource, error) {
	ad, err := provider.New(provider.Env{Page: page, Site: s, Sites: reg})
	if err != nil {
		return nil, nil, err
	}
	src, ok := ad.(provider.ArtifactSource)
	if !ok {
		return nil, nil, errs.New(errs.CapabilityMissing, "tab %s shows %s, which has no sandbox", page.ID(), s.Name).WithHint("use a ChatGPT tab")
	}
	return ad, src, nil
}

// ConversationTab finds the ChatGPT tab for conversation conv. With tabID
// it is exactly that tab, which must show the conversation unless anyTab.
// Otherwise: the tab that shows the conversation (several are
// TabAmbiguous), else with anyTab the first open ChatGPT tab, else a new
// background tab navigated to the conversation (created is true). The tab
// comes from tabs.ResolveTab, so that it is this run's alone. Errors:
// BadInput for a tab on another conversation; the envelopes of
// tabs.ResolveTab and of the browser.
func ConversationTab(ctx context.Context, tabs Tabs, b *browser.Browser, reg *site.Registry, conv, tabID string, anyTab bool) (*browser.Page, site.Site, bool, error) {
	if tabID != "" {
		p, s, _, err := tabs.ResolveTab(ctx, b, reg, SiteID, tabID)
		if err != nil || anyTab {
			return p, s, false, err
		}
		info, err := p.Info(ctx)
		if err != nil {
			return nil, site.Site{}, false, err
		}
		if !showsConversation(info.URL, conv) {
			return nil, site.Site{}, false, errs.New(errs.BadInput, "tab %s does not show conversation %s", tabID, conv).
				WithEvidence("tab", tabID).WithEvidence("url", site.Redact(info.URL)).
				WithHint("drop --tab to let Ferry find or open the conversation, or pass the tab that shows it")
		}
		return p, s, false, nil
	}
	s, err := reg.Get(SiteID)
	if err != nil {
		return nil, site.Site{}, false, err
	}
	targets, err := b.Targets(ctx, func(host string) string {
		if hs, ok := reg.ForHost(host); ok {
			return hs.ID
		}
		return ""
	})
	if err != nil {
		return nil, site.Site{}, false, err
	}
	var on, other []browser.Target
	for _, t := range targets {
		switch {
		case t.Site != s.ID || !s.Allows(t.URL):
		case showsConversation(t.URL, conv):
			on = append(on, t)
		default:
			other = append(other, t)
		}
	}
	switch {
	case len(on) > 1 && !anyTab:
		var list []string
		for _, t := range on {
			list = append(list, t.ID)
		}
		amb := errs.New(errs.TabAmbiguous, "%d tabs show conversation %s", len(on), conv).
			WithEvidence("tabs", strings.Join(list, "; "))
		for _, t := range on {
			amb.WithTab(t.ID, site.Redact(t.URL), t.Title)
		}
		return nil, site.Site{}, false, amb
	}
	candidates := on
	if len(on) == 0 && anyTab {
		candidates = other
	}
	// A tab listed a moment ago may be closing (Chromium lists a closed
	// target for a while): one that is gone is passed over, not an error.
	// tabs.ResolveTab makes the tab this run's alone (waiting while
	// another run drives it).
	for _, t := range candidates {
		p, _, _, err := tabs.ResolveTab(ctx, b, reg, SiteID, t.ID)
		if errs.CodeOf(err) == errs.TargetNotFound {
			continue
		}
		return p, s, false, err
	}
	u, err := url.Parse(s.Address)
	if err != nil || u.Host == "" {
		return nil, site.Site{}, false, errs.New(errs.ConfigInvalid, "the %s site's address %q is not a URL", SiteID, s.Address)
	}
	blank, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		return nil, site.Site{}, false, err
	}
	p, _, _, err := tabs.ResolveTab(ctx, b, reg, SiteID, blank.ID())
	if err != nil {
		return nil, site.Site{}, false, err
	}
	if err := p.Navigate(ctx, u.Scheme+"://"+u.Host+"/c/"+conv); err != nil {
		c, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = p.Close(c)
		return nil, site.Site{}, false, err
	}
	return p, s, true, nil
}

// showsConversation reports whether the tab address raw is conversation
// conv's page (/c/<id>, also under a custom GPT's /g/<gpt>/c/<id>).
func showsConversation(raw, conv string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	p := strings.TrimSuffix(u.Path, "/")
	return strings.HasSuffix(p, "/c/"+conv)
}
