package core

import (
	"context"
	"os"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Retrieve brings the verified zips of conversation req.Conversation home
// with retrieveIn, in the browser req.Browser names, else in the owner's
// long-lived browser (attached anew: the retrieval closes what it opens),
// else in Ferry's own, launched. It returns the receipt, also on a failure
// after the run began, with the run's error. An agent retrieves only
// conversations of its own runs (or the user's, with the grant), into the
// artifacts directory (checkAgentRetrieve). Errors: req.Validate's;
// checkAgentRetrieve's; retrieveIn's.
func (s *Service) Retrieve(ctx context.Context, c service.Caller, req service.RetrieveRequest) (*service.RetrieveReceipt, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	if !c.IsOwner() {
		if err := s.checkAgentRetrieve(ctx, c, req); err != nil {
			return nil, err
		}
	}
	creq := codemode.RetrieveRequest{Conversation: req.Conversation, TabID: req.TabID, Timeout: req.Timeout()}
	if err := creq.Validate(); err != nil {
		return nil, err
	}
	open := func(ctx context.Context, _ config.Paths) (*browser.Browser, error) {
		if req.Browser != nil {
			return s.c.openBrowser(ctx, askBrowser(*req.Browser))
		}
		b, err := s.h.browserFor(ctx)
		if err != nil {
			return nil, err
		}
		if b != nil {
			return browser.Attach(ctx, b.Endpoint())
		}
		return s.c.openBrowser(ctx, AskRequest{})
	}
	rc, runErr := retrieveIn(ctx, s.c.leases, s.c.Paths(), retrieveRequest{Conversation: req.Conversation, TabID: req.TabID,
		OutDir: req.OutDir, Timeout: req.Timeout(), OpenBrowser: open}, creq)
	if rc == nil {
		return nil, runErr
	}
	return rc, runErr
}

// checkAgentRetrieve holds an agent's retrieval to what it may name: a
// conversation of its own runs (any, when the user granted the client
// theirs), and no folder, tab or browser of its choosing: its zips go to
// Ferry's artifacts directory, whose paths the receipt gives (a face may
// copy them where its user allowed). Errors: errs.HubForbidden;
// errs.HubUnauthorized for an unknown or revoked client.
func (s *Service) checkAgentRetrieve(ctx context.Context, c service.Caller, req service.RetrieveRequest) error {
	if req.OutDir != "" || req.TabID != "" || req.Browser != nil {
		return errs.New(errs.HubForbidden, "an agent's retrieval names no folder, tab or browser: its zips go to Ferry's artifacts directory").
			WithHint("leave the folder, tab and browser out and use the zips' paths in the receipt")
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return err
	}
	if sc.granted || sc.conversation(req.Conversation) {
		return nil
	}
	return grantHint(errs.New(errs.HubForbidden, "conversation %q is not one of this client's runs", clipText(req.Conversation, 80)), c.Client)
}

// askBrowser is the browser part of an AskRequest for spec.
func askBrowser(spec service.BrowserSpec) AskRequest {
	req := AskRequest{Headless: spec.Headless, Chromium: spec.Chromium, BrowserArgs: spec.Args}
	if spec.Mode == service.BrowserAttach {
		req.BrowserURL = spec.URL
	}
	return req
}

// checkOwnProfile refuses to attach to Ferry's own browser (url is the data
// directory's profile) while it does not run. Errors:
// errs.BrowserDisconnected with how to start it.
func (c *Core) checkOwnProfile(url string) error {
	if url != c.paths.ProfileDir() {
		return nil
	}
	if _, err := os.Stat(filepath.Join(url, "DevToolsActivePort")); err != nil {
		return errs.New(errs.BrowserDisconnected, "Ferry's browser is not running (its profile %s has no DevToolsActivePort)", url).
			WithHint("start the Ferry app (it runs the browser), pass --browser-url for a browser started with --remote-debugging-port, or use --browser launch")
	}
	return nil
}
