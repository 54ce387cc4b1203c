package runs

import (
	"context"
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
	defer detach(ctx, p)
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

// detachTimeout bounds detaching from a tab once its work is done.
const detachTimeout = 5 * time.Second

// detach ends Ferry's session with tab p, also after ctx ended, waiting at
// most detachTimeout: a browser that stopped answering must not hold the
// run past its deadline.
func detach(ctx context.Context, p *browser.Page) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), detachTimeout)
	defer cancel()
	_ = p.Detach(dctx)
}
