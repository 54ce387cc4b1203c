package tabs

import (
	"context"
	"sync"

	"github.com/ferrydesk/ferry/backend/browser"
)

// Runs going on at once in one process (the owner's jobs) share its
// browser connection, and a connection has one *browser.Page per tab: a
// run that detaches from a tab ends it for every other user of that tab.
// So a tab is driven by one run at a time. A run holds a lease on its tab
// from the moment it chooses it until Ferry's use of the page ends
// (Page.Done: detached, closed, crashed, or the browser gone) or the run's
// context does; while the lease is held no other run chooses that tab: a
// run for the same site gets a tab of its own, and a run that names the
// tab waits its turn.

// lease is one held tab: the site it was chosen for (its address may
// still be about:blank) and whether it was opened because every tab of
// its site was busy.
type lease struct {
	site  string
	spare bool
	// why says why the tab is busy when it is not an ordinary run ("is
	// still writing the answer of a cancelled run"), for the queue notice.
	why  string
	page *browser.Page
	run  <-chan struct{} // the Done of the run's context (or of its lease life)
}

// live reports whether the lease still holds: neither Ferry's use of the
// page nor the run ended. The goroutine hold starts deletes an ended
// lease, but a run that starts just after another detached must not find
// the tab busy meanwhile (and open a spare tab of the site for nothing).
func (t lease) live() bool {
	select {
	case <-t.page.Done():
		return false
	case <-t.run:
		return false
	default:
		return true
	}
}

// Leases are the tabs the runs of one owner hold, on every browser
// connection its runs use, with the tabs claimed for agents and the tab
// each site's runs of the owner last took. The zero value is unusable; get
// one from NewLeases, and share it among every run that may use the same
// browser connection.
type Leases struct {
	mu   sync.Mutex
	held map[*browser.Browser]map[string]lease
	// claimed maps the tabs agents' runs opened or took to the agent's
	// client id (see own.go); it outlives the leases.
	claimed map[*browser.Browser]map[string]string
	// used maps each site to the tab the owner's runs last took on it
	// (see pref.go); it outlives the leases.
	used map[*browser.Browser]map[string]string
	// freed is closed, and replaced, whenever a lease ends.
	freed chan struct{}
}

// NewLeases is an empty table of leases.
func NewLeases() *Leases {
	return &Leases{held: map[*browser.Browser]map[string]lease{}, claimed: map[*browser.Browser]map[string]string{},
		used: map[*browser.Browser]map[string]string{}, freed: make(chan struct{})}
}

// claim records that tab id of b is agent client's (a tab its runs
// opened or took): a run of anyone else that names no tab never chooses
// it. l.mu must be held.
func (l *Leases) claim(b *browser.Browser, id, client string) {
	if l.claimed[b] == nil {
		l.claimed[b] = map[string]string{}
	}
	l.claimed[b][id] = client
}

// claimedBy is the agent whose tab id of b is ("" for none). l.mu must be
// held.
func (l *Leases) claimedBy(b *browser.Browser, id string) string { return l.claimed[b][id] }

// forget drops the claims on the tabs of b not in open (closed since),
// and forgets them as the tabs last used.
// l.mu must be held.
func (l *Leases) forget(b *browser.Browser, open map[string]bool) {
	for id := range l.claimed[b] {
		if !open[id] {
			delete(l.claimed[b], id)
		}
	}
	for siteID, id := range l.used[b] {
		if !open[id] {
			delete(l.used[b], siteID)
		}
	}
}

// busy reports whether a run holds tab id of b. l.mu must be held.
func (l *Leases) busy(b *browser.Browser, id string) bool {
	t, ok := l.held[b][id]
	return ok && t.live()
}

// ofSite lists the tabs of b held for site siteID. l.mu must be held.
func (l *Leases) ofSite(b *browser.Browser, siteID string) []string {
	var out []string
	for id, t := range l.held[b] {
		if t.site == siteID && t.live() {
			out = append(out, id)
		}
	}
	return out
}

// hold records the lease of p's tab until Ferry's use of p ends, or ctx
// (the run's) does: a run that forgot to detach does not keep its tab busy
// for good. A run r given a lease life (Run.Life) holds it until that ends
// instead. l.mu must be held.
func (l *Leases) hold(ctx context.Context, r Run, b *browser.Browser, p *browser.Page, t lease) {
	if l.held[b] == nil {
		l.held[b] = map[string]lease{}
	}
	ctx = r.life(ctx)
	t.page, t.run = p, ctx.Done()
	l.held[b][p.ID()] = t
	go func() {
		select {
		case <-p.Done():
		case <-ctx.Done():
		}
		l.mu.Lock()
		if l.held[b][p.ID()].page == p {
			delete(l.held[b], p.ID())
		}
		if len(l.held[b]) == 0 {
			delete(l.held, b)
		}
		close(l.freed)
		l.freed = make(chan struct{})
		l.mu.Unlock()
	}()
}

// setSite records that tab id of b, held, shows site siteID.
func (l *Leases) setSite(b *browser.Browser, id, siteID string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t, ok := l.held[b][id]; ok {
		t.site = siteID
		l.held[b][id] = t
	}
}

// setWhy records why tab id of b, held, stays busy (see lease.why).
func (l *Leases) setWhy(b *browser.Browser, id, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t, ok := l.held[b][id]; ok {
		t.why = why
		l.held[b][id] = t
	}
}

// Spare reports whether tab id of b was opened for a run because every
// tab of its site was busy: such a tab is closed once its run is done, or
// it would make the site's next run ambiguous.
func (l *Leases) Spare(b *browser.Browser, id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.held[b][id].spare
}

// wait returns when a lease ends after l.mu was released by the caller
// (it must take freed under l.mu), or with ctx's error.
func wait(ctx context.Context, freed <-chan struct{}) error {
	select {
	case <-freed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
