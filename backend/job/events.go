package job

import (
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/provider"
)

// EventKind says what an Event reports.
type EventKind string

// The event kinds.
const (
	// EventState: the run entered State (already persisted).
	EventState EventKind = "state"
	// EventPartial: the answer grew (Partial).
	EventPartial EventKind = "partial"
	// EventFinding: reattach says what it found (Finding).
	EventFinding EventKind = "finding"
)

// Event is one thing a run reports to subscribers (the desktop, the hub,
// `ferry watch`).
type Event struct {
	Session string            `json:"session"`
	Kind    EventKind         `json:"kind"`
	At      time.Time         `json:"at"`
	State   State             `json:"state,omitempty"`
	Note    string            `json:"note,omitempty"`
	Partial *provider.Partial `json:"partial,omitempty"`
	Finding *Finding          `json:"finding,omitempty"`
}

// bus delivers events to subscribers synchronously, in order. A subscriber
// must return quickly; it must not call back into the Runner.
type bus struct {
	mu   sync.Mutex
	next int
	subs map[int]func(Event)
}

// Subscribe calls fn for every later event of every run, in order, until
// the returned cancel is called. fn runs on the Runner's goroutine: a state
// event is delivered after the state is persisted and before the side
// effect it guards starts.
func (b *bus) Subscribe(fn func(Event)) (cancel func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.subs == nil {
		b.subs = map[int]func(Event){}
	}
	id := b.next
	b.next++
	b.subs[id] = fn
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs, id)
	}
}

func (b *bus) publish(ev Event) {
	b.mu.Lock()
	fns := make([]func(Event), 0, len(b.subs))
	for i := 0; i < b.next; i++ {
		if fn, ok := b.subs[i]; ok {
			fns = append(fns, fn)
		}
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
}
