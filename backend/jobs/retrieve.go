package jobs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Retrieve brings the verified zips of conversation req.Conversation home
// (runs.Pipeline.Retrieve), in the browser req.Browser names, else in the owner's
// long-lived browser (attached anew: the retrieval closes what it opens),
// else in Ferry's own, launched. It returns the receipt, also on a failure
// after the run began, with the run's error. Who may retrieve what is the
// Service's to decide before. Errors: codemode.RetrieveRequest.Validate's
// (errs.BadInput); runs.Pipeline.Retrieve's.
func (h *Runner) Retrieve(ctx context.Context, req service.RetrieveRequest) (*service.RetrieveReceipt, error) {
	creq := codemode.RetrieveRequest{Conversation: req.Conversation, TabID: req.TabID, Timeout: req.Timeout()}
	if err := creq.Validate(); err != nil {
		return nil, err
	}
	open := func(ctx context.Context) (*browser.Browser, error) {
		if req.Browser != nil {
			return h.pipe.OpenBrowser(ctx, askBrowser(*req.Browser))
		}
		b, err := h.browserFor(ctx)
		if err != nil {
			return nil, err
		}
		if b != nil {
			return browser.Attach(ctx, b.Endpoint())
		}
		return h.pipe.OpenBrowser(ctx, runs.AskRequest{})
	}
	return h.pipe.Retrieve(ctx, creq, req.OutDir, open)
}

// askBrowser is the browser part of an runs.AskRequest for spec.
func askBrowser(spec service.BrowserSpec) runs.AskRequest {
	req := runs.AskRequest{Headless: spec.Headless, Chromium: spec.Chromium, BrowserArgs: spec.Args}
	if spec.Mode == service.BrowserAttach {
		req.BrowserURL = spec.URL
	}
	return req
}
