package tabs

import "context"

// Run is what choosing and holding the tab of one run needs to know of the
// run beyond its context: whom it is for, what the owner has on screen,
// whom to tell that it waits, and how long its leases last. The zero value
// is a run of the owner with nothing on screen, that tells no one, and
// whose leases end with its context.
type Run struct {
	// Client is the agent client the run is for; "" is the owner.
	Client string
	// Own are the tabs the agent's earlier runs opened, newest first: its
	// new chats and follow-ups take one of them when it is free, and they
	// are claimed for it (own.go).
	Own []string
	// Shown is the run the owner has on screen (pref.go); nil for none.
	Shown *Shown
	// Queued is told what the run waits for ("the ChatGPT tab, which
	// another run drives") when the tab it needs is busy with another run,
	// and "" once it has its tab; nil tells no one.
	Queued func(waitingFor string)
	// Life, when not nil, is how long the leases the run takes last (or
	// until Ferry's use of the page ends) instead of its context: a run the
	// user cancels keeps its tab while it stops the site's answer, and no
	// other run takes the tab (and the one *browser.Page the run detaches)
	// meanwhile.
	Life context.Context
}

// notice is r.Queued, or a notice that does nothing.
func (r Run) notice() func(string) {
	if r.Queued != nil {
		return r.Queued
	}
	return func(string) {}
}

// life is the context whose end ends the leases r takes under ctx.
func (r Run) life(ctx context.Context) context.Context {
	if r.Life != nil {
		return r.Life
	}
	return ctx
}
