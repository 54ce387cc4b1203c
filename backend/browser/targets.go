package browser

import (
	"context"
	"net/url"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Target describes one tab.
type Target struct {
	ID       string `json:"id"`  // the CDP TargetID, stable for the tab's life
	URL      string `json:"url"` // the tab's live address
	Title    string `json:"title"`
	Type     string `json:"type"`           // always "page" in Targets
	Site     string `json:"site,omitempty"` // the site id inferSite gave for the host, if any
	Attached bool   `json:"attached"`       // some DevTools client (maybe Ferry) is attached
}

// Targets lists the browser's tabs (targets of type page; service workers,
// iframes and prerenders are left out), in the browser's order. inferSite,
// if not nil, maps a tab's hostname to a site id (the site registry's
// lookup); this package knows nothing of sites. It fails with
// BrowserDisconnected when the connection is gone.
func (b *Browser) Targets(ctx context.Context, inferSite func(host string) string) ([]Target, error) {
	var res proto.TargetGetTargetsResult
	if err := b.Call(ctx, "list tabs", "Target.getTargets", proto.TargetGetTargets{}, &res); err != nil {
		return nil, err
	}
	out := []Target{}
	for _, ti := range res.TargetInfos {
		if ti.Type != proto.TargetTargetInfoTypePage || ti.Subtype != "" {
			continue
		}
		out = append(out, targetFromInfo(ti, inferSite))
	}
	return out, nil
}

func targetFromInfo(ti *proto.TargetTargetInfo, inferSite func(string) string) Target {
	t := Target{ID: string(ti.TargetID), URL: ti.URL, Title: ti.Title, Type: string(ti.Type), Attached: ti.Attached}
	if inferSite != nil {
		if u, err := url.Parse(ti.URL); err == nil && u.Hostname() != "" {
			t.Site = inferSite(u.Hostname())
		}
	}
	return t
}

// TabOption configures OpenTab.
type TabOption func(*proto.TargetCreateTarget)

// InContext opens the tab in the browser context (an incognito-like profile
// partition) with the given id; see NewContext.
func InContext(id string) TabOption {
	return func(c *proto.TargetCreateTarget) { c.BrowserContextID = proto.BrowserBrowserContextID(id) }
}

// OpenTab opens rawURL in a new background tab of the current window (never
// activated, never a new window) and returns it attached, as soon as the tab
// exists: the page may still be loading (use Navigate on an about:blank tab
// to wait for a load). Errors: BadInput
// for a URL that does not parse; BrowserDisconnected; Internal when the
// browser refuses.
func (b *Browser) OpenTab(ctx context.Context, rawURL string, opts ...TabOption) (*Page, error) {
	if _, err := url.Parse(rawURL); err != nil {
		return nil, errs.Wrap(err, errs.BadInput, "open a tab: the address %q does not parse", rawURL)
	}
	req := proto.TargetCreateTarget{URL: rawURL, Background: true}
	for _, o := range opts {
		o(&req)
	}
	var res proto.TargetCreateTargetResult
	if err := b.Call(ctx, "open a tab", "Target.createTarget", req, &res); err != nil {
		return nil, err
	}
	return b.Page(ctx, string(res.TargetID))
}

// Page returns the tab with the given TargetID, attaching to it if Ferry is
// not attached yet. It never activates the tab, never creates one and never
// falls back to another: a TargetID that names no open tab fails with
// TargetNotFound.
func (b *Browser) Page(ctx context.Context, targetID string) (*Page, error) {
	id := proto.TargetTargetID(targetID)
	if p := b.pageByTarget(id); p != nil && p.life.Err() == nil {
		return p, nil
	}
	b.attachMu.Lock()
	defer b.attachMu.Unlock()
	if p := b.pageByTarget(id); p != nil && p.life.Err() == nil {
		return p, nil
	}

	var info proto.TargetGetTargetInfoResult
	err := b.Call(ctx, "look up the tab", "Target.getTargetInfo", proto.TargetGetTargetInfo{TargetID: id}, &info)
	if err != nil {
		if errs.Has(err, errs.Internal) || errs.Has(err, errs.TargetNotFound) {
			return nil, errs.Wrap(err, errs.TargetNotFound, "no open tab has the id %s", targetID).
				WithEvidence("target_id", targetID).
				WithHint("list the open tabs with `ferry tabs` and pass one of their ids")
		}
		return nil, err
	}
	if info.TargetInfo.Type != proto.TargetTargetInfoTypePage {
		return nil, errs.New(errs.TargetNotFound, "the target %s is a %s, not a tab", targetID, info.TargetInfo.Type).
			WithEvidence("target_id", targetID).
			WithHint("list the open tabs with `ferry tabs` and pass one of their ids")
	}

	return b.attachLocked(ctx, id, info.TargetInfo.BrowserContextID)
}

// AttachTarget attaches to the target id of the browser context bctx (""
// for the default one), whatever its type: Page hands out tabs only, and a
// hidden target (package fetch's download list) is not one. Errors: as
// Page's.
func (b *Browser) AttachTarget(ctx context.Context, id proto.TargetTargetID, bctx proto.BrowserBrowserContextID) (*Page, error) {
	b.attachMu.Lock()
	defer b.attachMu.Unlock()
	return b.attachLocked(ctx, id, bctx)
}

// attachLocked is attach with attachMu held.
func (b *Browser) attachLocked(ctx context.Context, id proto.TargetTargetID, bctx proto.BrowserBrowserContextID) (*Page, error) {
	var att proto.TargetAttachToTargetResult
	if err := b.Call(ctx, "attach to the tab", "Target.attachToTarget",
		proto.TargetAttachToTarget{TargetID: id, Flatten: true}, &att); err != nil {
		return nil, err
	}
	p := newPage(b, id, att.SessionID, bctx)
	b.mu.Lock()
	b.pages[id] = p
	b.sessions[att.SessionID] = p
	b.mu.Unlock()

	// Inspector.targetCrashed is how a page session learns its renderer
	// died; without it a call in flight would wait forever.
	if err := p.Exec(ctx, "Inspector.enable", proto.InspectorEnable{}, nil); err != nil {
		b.endPage(p, err)
		return nil, err
	}
	return p, nil
}

// BrowserContext is an isolated cookie and storage partition (what an
// incognito window uses). Tests and the simulator use one per test.
type BrowserContext struct {
	b  *Browser
	ID string
}

// NewContext creates an isolated browser context. Dispose it when done.
func (b *Browser) NewContext(ctx context.Context) (*BrowserContext, error) {
	var res proto.TargetCreateBrowserContextResult
	if err := b.Call(ctx, "create a browser context", "Target.createBrowserContext",
		proto.TargetCreateBrowserContext{}, &res); err != nil {
		return nil, err
	}
	return &BrowserContext{b: b, ID: string(res.BrowserContextID)}, nil
}

// OpenTab opens a background tab in the context (see Browser.OpenTab).
func (c *BrowserContext) OpenTab(ctx context.Context, rawURL string) (*Page, error) {
	return c.b.OpenTab(ctx, rawURL, InContext(c.ID))
}

// Dispose closes the context's tabs and deletes its cookies and storage.
func (c *BrowserContext) Dispose(ctx context.Context) error {
	return c.b.Call(ctx, "dispose of a browser context", "Target.disposeBrowserContext",
		proto.TargetDisposeBrowserContext{BrowserContextID: proto.BrowserBrowserContextID(c.ID)}, nil)
}
