package ownerbrowser

import (
	"context"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
)

// tabsSettle is how long the tabs must be quiet before a change is told:
// a page that loads changes its address and title several times.
const tabsSettle = 200 * time.Millisecond

// WatchTabs sets fn (which must return quickly) to be told, once things
// settle, each time a tab of the owner's browser opens, closes, navigates
// or changes its title: the browser's own target events, followed for
// every browser connected from now on (and the one connected now).
func (m *Browser) WatchTabs(fn func()) {
	d := &debouncer{wait: tabsSettle, fn: fn}
	m.mu.Lock()
	m.tabsChanged = d.poke
	b := m.b
	m.mu.Unlock()
	if b != nil && b.Err() == nil {
		go b.WatchTargets(context.Background(), d.poke)
	}
}

// watchTabs follows b's target events for the listener set by WatchTabs.
func (m *Browser) watchTabs(b *browser.Browser) {
	m.mu.Lock()
	fn := m.tabsChanged
	m.mu.Unlock()
	if fn != nil {
		go b.WatchTargets(context.Background(), fn)
		fn() // the new browser's tabs
	}
}

// debouncer calls fn once wait has passed since the last poke.
type debouncer struct {
	wait time.Duration
	fn   func()

	mu sync.Mutex
	t  *time.Timer
}

func (d *debouncer) poke() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.t != nil {
		d.t.Stop()
	}
	d.t = time.AfterFunc(d.wait, d.fn)
}
