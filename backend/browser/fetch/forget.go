package fetch

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
)

// The browser keeps every download in its list (chrome://downloads) and, in
// a persistent profile, in the profile's history: for a ChatGPT sandbox zip
// that is a signed, cookie-bound address the user never asked to keep.
// DevTools has no command that removes an entry, but the download list's
// own page has: Ferry opens chrome://downloads in a hidden target of the
// same browser context, asks the page's handler to remove its entries, and
// closes the page, which is when the browser removes them for good (until
// then the page could still undo the removal).

// forgetTimeout bounds one clean-up of the download list.
const forgetTimeout = 10 * time.Second

// downloadListJS finds the download list's entries that Ferry made: a file
// under dir (followed by the path separator) or an address ending in mark.
// With remove set it removes them. It reports ready=false until the page has
// received the browser's list (its loaded_ promise is fulfilled once the
// first batch arrives, even an empty one), and shape=false when the page is
// not the one Ferry knows.
const downloadListJS = `async (dir, mark, remove) => {
  const m = document.querySelector('downloads-manager');
  const h = m && m.browserProxy_ && m.browserProxy_.handler;
  if (!m || !h || typeof h.remove !== 'function') return {ready: !!m && document.readyState === 'complete', shape: false, ids: []};
  const ready = m.loaded_ && typeof m.loaded_ === 'object' && 'isFulfilled_' in m.loaded_ ?
    m.loaded_.isFulfilled_ === true : document.readyState === 'complete';
  if (!ready) return {ready: false, shape: true, ids: []};
  const items = m.items_ || [];
  const mine = items.filter(i => (dir && typeof i.filePath === 'string' && i.filePath.startsWith(dir + '/')) ||
    (mark && typeof i.url === 'string' && i.url.endsWith(mark)));
  if (remove) { for (const i of mine) await h.remove(String(i.id)); }
  return {ready: true, shape: true, ids: mine.map(i => String(i.id))};
}`

type downloadList struct {
	Ready bool     `json:"ready"`
	Shape bool     `json:"shape"`
	IDs   []string `json:"ids"`
}

// errListShape marks a chrome://downloads page that no longer has the
// handler Ferry calls.
var errListShape = errors.New("the browser's download list is not the page Ferry knows")

// forgetDownloads removes from the download list of the browser context
// bctx ("" for the default one) the entries of files under dir or of
// addresses ending in mark. Once the list
// has loaded it waits up to settle for an entry to show (a failed request's
// entry may come a moment after), so a call for a download that left no
// entry costs settle.
func forgetDownloads(ctx context.Context, b *browser.Browser, bctx proto.BrowserBrowserContextID, dir, mark string, settle time.Duration) error {
	p, err := openDownloadList(ctx, b, bctx)
	if err != nil {
		return err
	}
	defer func() {
		// Closing the page is what makes the removal final: the browser
		// removes the entries when the page is gone, which comes a moment
		// after the close is acknowledged.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = p.Close(cctx)
		waitTargetGone(cctx, b, proto.TargetTargetID(p.ID()))
	}()
	_, err = listDownloads(ctx, p, dir, mark, true, settle)
	return err
}

// listDownloads reads (and with remove set, removes) Ferry's entries of the
// open download list page p; it polls until at least one shows or settle
// has passed since the list loaded.
func listDownloads(ctx context.Context, p *browser.Page, dir, mark string, remove bool, settle time.Duration) ([]string, error) {
	var deadline time.Time
	for {
		var l downloadList
		if err := p.EvalInto(ctx, &l, downloadListJS, dir, mark, remove); err != nil {
			return nil, err
		}
		if l.Ready && !l.Shape {
			return nil, errs.Wrap(errListShape, errs.Internal, "remove Ferry's downloads from the browser's download list: %v", errListShape)
		}
		if len(l.IDs) > 0 {
			return l.IDs, nil
		}
		if l.Ready && deadline.IsZero() {
			deadline = time.Now().Add(settle)
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, nil
		}
		select {
		case <-ctx.Done():
			return nil, p.Failure(ctx, "read the browser's download list", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// openDownloadList opens chrome://downloads in the browser context bctx as
// a hidden target: it is not a tab, so it never shows in the tab strip or
// in Ferry's Tabs view. A browser that does not know hidden targets gets a
// background tab instead.
func openDownloadList(ctx context.Context, b *browser.Browser, bctx proto.BrowserBrowserContextID) (*browser.Page, error) {
	type createTarget struct {
		proto.TargetCreateTarget
		Hidden bool `json:"hidden,omitempty"`
	}
	req := createTarget{TargetCreateTarget: proto.TargetCreateTarget{URL: "chrome://downloads/", Background: true, BrowserContextID: bctx}, Hidden: true}
	var res proto.TargetCreateTargetResult
	if err := b.Call(ctx, "open the download list", "Target.createTarget", req, &res); err != nil {
		if !errs.Has(err, errs.Internal) || !strings.Contains(err.Error(), "hidden") {
			return nil, err
		}
		req.Hidden = false
		if err := b.Call(ctx, "open the download list", "Target.createTarget", req, &res); err != nil {
			return nil, err
		}
	}
	return b.AttachTarget(ctx, res.TargetID, bctx)
}

// waitTargetGone waits until the browser no longer lists the target id, or
// ctx ends.
func waitTargetGone(ctx context.Context, b *browser.Browser, id proto.TargetTargetID) {
	for {
		var all proto.TargetGetTargetsResult
		if err := b.Call(ctx, "list the targets", "Target.getTargets", proto.TargetGetTargets{}, &all); err != nil {
			return
		}
		gone := true
		for _, ti := range all.TargetInfos {
			if ti.TargetID == id {
				gone = false
			}
		}
		if gone {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// forgetLater starts forgetDownloads in the background, so that nothing
// waits for it (it costs about a second, most of it the list page's load);
// Browser.Close waits for it (Browser.Background: at most 10 s), so a
// process that closes its browser before exiting leaves no entry behind.
// It is best effort: an entry left behind costs the user a line in
// chrome://downloads, and never fails a download that arrived whole.
func forgetLater(b *browser.Browser, bctx proto.BrowserBrowserContextID, dir, mark string) {
	b.Background(forgetTimeout, func(ctx context.Context) {
		_ = forgetDownloads(ctx, b, bctx, dir, mark, 2*time.Second)
	})
}
