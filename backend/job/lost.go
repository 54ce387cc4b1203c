package job

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// TabWatcher is implemented by adapters whose tab can tell whether it is
// still usable (every adapter built on provider.Web). TabLost returns nil
// while it is, else the envelope that ended it: errs.BrowserDisconnected
// when the browser went away (killed, crashed, its DevTools connection
// closed), errs.TargetCrashed or errs.TargetNotFound when only the tab did.
type TabWatcher interface {
	TabLost(ctx context.Context) error
}

// lostTab is cause, or, when a's tab has ended, the envelope of that end:
// a step that fails because its browser was killed reports the lost browser,
// not what the cut call happened to see (an ended stream reads as the
// site's error). The original code is kept as evidence.
func lostTab(ctx context.Context, a provider.Adapter, cause error) error {
	w, ok := a.(TabWatcher)
	if !ok || cause == nil {
		return cause
	}
	lost := w.TabLost(context.WithoutCancel(ctx))
	if lost == nil || errs.CodeOf(lost) == errs.CodeOf(cause) {
		return cause
	}
	env := errs.From(lost)
	out := errs.Wrap(cause, env.Code, "%s", env.Message).WithEvidence("reported", string(errs.CodeOf(cause)))
	for k, v := range env.Evidence {
		out = out.WithEvidence(k, v)
	}
	return out
}

// lostHint is what a run whose tab ended in state s tells its user: after
// the send the site very likely finished the answer, which reattach
// collects from the journaled conversation without sending again (without
// a journaled conversation the user must look in the site's history);
// before it nothing left the browser.
func lostHint(env *errs.Envelope, s *Session) *errs.Envelope {
	switch {
	case s.State.Sent() && s.ConversationURL != "":
		return env.WithHint("the prompt was sent and the site has very likely finished the answer: run `ferry reattach --session %s` to open the conversation and collect it without sending the prompt again", s.ID)
	case s.State.Sent():
		return env.WithHint("the prompt was sent and the site has very likely finished the answer, but Ferry did not learn the conversation's address: find the answer in the site's history rather than sending the prompt again (`ferry reattach --session %s` collects it from a tab that shows it)", s.ID)
	case s.State == StateSubmitting && s.ConversationURL != "":
		return env.WithHint("the browser was lost while the prompt was being sent: run `ferry reattach --session %s`, which looks for the prompt in the conversation and never sends it twice", s.ID)
	case s.State == StateSubmitting:
		return env.WithHint("the browser was lost while the prompt was being sent, so it may have left: check the site's history for it before running it again (`ferry reattach --session %s` looks for it in a tab that shows the conversation)", s.ID)
	case env.Code == errs.BrowserDisconnected:
		return env.WithHint("nothing was sent: it is safe to run the prompt again once the browser runs")
	}
	return env.WithHint("nothing was sent: it is safe to run the prompt again")
}

// lostWithPage is the envelope of a run of a site whose chats live only in
// their page (site.Site.PageOnlyChats) that lost its tab or browser after
// the send: the answer went with the page, and nothing can collect it.
func lostWithPage(env *errs.Envelope, st site.Site, s *Session) *errs.Envelope {
	out := errs.Wrap(env, env.Code, "%s keeps a chat only in the page that runs it, and the page went away while it answered (%s): the answer went with it and cannot be collected", st.Name, env.Message).
		WithEvidence("session", s.ID).WithEvidence("sent", "yes")
	for k, v := range env.Evidence {
		out = out.WithEvidence(k, v)
	}
	return out.WithHint("send the prompt again: %s finishes no answer whose page is gone", st.Name)
}

// siteKey carries in a run's context the site of the adapter driving it,
// for what stop must know of the site.
type siteKey struct{}

func withSiteOf(ctx context.Context, a provider.Adapter) context.Context {
	if a == nil {
		return ctx // a reattach that needs no page
	}
	return context.WithValue(ctx, siteKey{}, a.Site())
}

// siteOf is the site withSiteOf recorded (the zero Site when none).
func siteOf(ctx context.Context) site.Site {
	st, _ := ctx.Value(siteKey{}).(site.Site)
	return st
}
