package chatgpt

import (
	"context"
	"regexp"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// A new chat first shows a transient address (/c/WEB:<uuid>, or
// /c/local-chatgpt%3A<id>) and its lasting /c/<id> only later (the
// reference, "What changed": transient URLs; a peer's runs that took the
// transient one for the id hung). The adapter never records or continues a
// transient address: the conversation is the one its answer stream names,
// or, on the DOM path, the lasting address the tab shows once the site
// gives it.

// addressPatience bounds the wait, after a turn the page completed, for
// the tab to trade a transient address for the lasting one.
const addressPatience = 15 * time.Second

// streamIDs are the conversation ids Ferry takes from a stream: those a
// lasting address could hold.
var streamIDs = regexp.MustCompile(`^[A-Za-z0-9-]+$`)

// turnMemory is the turn the adapter last waited for, whose stream names
// the conversation before the tab's address does.
type turnMemory struct {
	mu   sync.Mutex
	turn *provider.Turn
}

func (m *turnMemory) set(t *provider.Turn) {
	m.mu.Lock()
	m.turn = t
	m.mu.Unlock()
}

// conversation is the conversation id the last turn's stream named, when
// it is one a lasting address could hold.
func (m *turnMemory) conversation() string {
	m.mu.Lock()
	t := m.turn
	m.mu.Unlock()
	if t == nil {
		return ""
	}
	if res, ok := t.Stream(); ok && streamIDs.MatchString(res.ConversationID) {
		return res.ConversationID
	}
	return ""
}

// Wait implements provider.Adapter: provider.Web's wait, then, for a turn
// whose stream named no conversation, a bounded wait for the tab's lasting
// address (the answer is complete either way; without an address the run
// says it has no conversation id). A turn refused as its conversation being
// too long waits the same way: the run starts a new chat next and records
// the conversation it leaves, which a tab sent to just after a new chat's
// first turn may still show at its transient address.
func (a *Adapter) Wait(ctx context.Context, t *provider.Turn, onPartial func(provider.Partial)) error {
	a.last.set(t)
	a.research.started, a.research.done = false, nil
	// A deep research's turn a reattach found: its answer is only the
	// research's start, with no text the page could show finished; the
	// research is followed at once.
	if t.Found() && a.researchTurn(ctx, t) {
		a.research.chosen = false
		return a.followResearch(ctx, t, onPartial)
	}
	if err := a.Web.Wait(ctx, t, onPartial); err != nil {
		if errs.CodeOf(err) == errs.ConversationTooLong {
			a.settleAddress(ctx)
		}
		return err
	}
	if a.last.conversation() == "" {
		a.settleAddress(ctx)
	}
	// A Deep Research send's answer is only its start: the report comes
	// minutes later, in a frame (research.go).
	if a.researchTurn(ctx, t) {
		a.research.chosen = false
		return a.followResearch(ctx, t, onPartial)
	}
	return nil
}

// settleAddress waits, up to addressPatience, while the tab shows a
// transient address of the site's, for the lasting one.
func (a *Adapter) settleAddress(ctx context.Context) {
	deadline := time.Now().Add(addressPatience)
	for {
		info, err := a.Page.Info(ctx)
		if err != nil {
			return
		}
		if _, transient := a.Site().Conversation(info.URL); !transient || !a.Site().Allows(info.URL) || time.Now().After(deadline) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(a.Poll):
		}
	}
}

// ConversationURL implements job.ConversationLocator: the lasting address
// the tab shows, else the address of the conversation the last turn's
// stream named (the tab still on a transient address), else "".
func (a *Adapter) ConversationURL(ctx context.Context) (string, error) {
	u, err := a.Web.ConversationURL(ctx)
	if err != nil || u != "" {
		return u, err
	}
	if id := a.last.conversation(); id != "" {
		return a.ConversationAddress(id), nil
	}
	return "", nil
}
