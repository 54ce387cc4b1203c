package browser

import "context"

// BringToFront shows the tab in front of its window and raises the window:
// the one exception to Ferry working in the background, for the moment the
// user asked to see the tab (logging in to a site from the Get started
// view). Nothing else may call it (TestNoCodePathActivatesATabOrFocusesAWindow
// holds this file to this one call). Errors: the page's envelopes
// (TargetNotFound, TargetCrashed, BrowserDisconnected, Timeout, Cancelled).
func (p *Page) BringToFront(ctx context.Context) error {
	return p.Exec(ctx, "Page.bringToFront", struct{}{}, nil)
}
