package core

import (
	"context"
	"fmt"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/site"
)

// A run whose browser was killed after the send is collected in whatever
// browser runs now: reattach finds one (or launches Ferry's own) and opens
// the run's journaled conversation in a new tab, then collects the answer
// there without sending anything.

// reopenConversation rebinds run s to a new tab of b showing its journaled
// conversation, when its own tab is gone from b and the run lost it
// (job.Session.LostItsTab), and returns the rebound record; a run whose tab
// is in b, or that did not lose it, is returned as it is. The new tab and
// the conversation are recorded in the run's routing receipts. Errors: the
// browser's envelopes; the store's.
func reopenConversation(ctx context.Context, b *browser.Browser, repo *job.Repo, s *job.Session) (*job.Session, error) {
	if !s.LostItsTab() {
		return s, nil
	}
	tabs, err := b.Targets(ctx, nil)
	if err != nil {
		return s, err
	}
	for _, t := range tabs {
		if t.ID == s.TargetID {
			return s, nil
		}
	}
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		return s, err
	}
	defer p.Detach(context.WithoutCancel(ctx))
	if err := p.Navigate(ctx, s.ConversationURL); err != nil {
		return s, err
	}
	lostTab := s.TargetID
	return repo.Update(ctx, s.ID, "", func(x *job.Session) error {
		x.TargetID = p.ID()
		if x.Routing != nil {
			x.Routing.ControlledTabID = p.ID()
		}
		x.Receipts = append(x.Receipts, job.Receipt{Layer: "routing", At: time.Now().UTC(), Data: map[string]string{
			"reopened_conversation": site.Redact(s.ConversationURL), "lost_tab_id": lostTab, "controlled_tab_id": p.ID(),
			"lost_with": string(s.Error.Code)}})
		return nil
	})
}

// reattachBrowser is the browser a reattach of s resumes it in: the one
// chk.BrowserURL names, else the owner's, else Ferry's own running browser
// (its profile's DevToolsActivePort). A run that lost its browser
// (job.Session.LostItsTab) whose Ferry browser no longer runs gets Ferry's
// browser launched, as ask launches it (chk.Launch's options, else the
// owner's defaults), and closed by done. Errors: errs.BrowserDisconnected
// when no browser runs for a run that cannot be reopened; the browser's
// envelopes.
func (h *runner) reattachBrowser(ctx context.Context, s *job.Session, chk sessionCheck) (*browser.Browser, func(), error) {
	b, done, err := h.requestBrowser(ctx, chk.BrowserURL)
	if err == nil || chk.BrowserURL != "" || !s.LostItsTab() {
		return b, done, err
	}
	// Ferry's browser is gone (killed, crashed): its profile may still
	// name the dead one's port.
	req := h.defaults
	if l := chk.Launch; l != nil {
		req.Chromium, req.Headless, req.BrowserArgs = l.Chromium, l.Headless, l.Args
	}
	req.BrowserURL = ""
	if b, err = h.c.openBrowser(ctx, req); err != nil {
		return nil, nil, fmt.Errorf("launch a browser to collect run %s: %w", s.ID, err)
	}
	return b, func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		_ = b.Close(cctx)
	}, nil
}
