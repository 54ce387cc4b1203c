package job

import (
	"sync"

	"github.com/ferrydesk/ferry/backend/record"
)

// EventKind says what an Event reports.
type EventKind = record.EventKind

// The event kinds.
const (
	// EventState: the run entered State (already persisted).
	EventState = record.EventState
	// EventPartial: the answer grew (Partial).
	EventPartial = record.EventPartial
	// EventFinding: reattach says what it found (Finding).
	EventFinding = record.EventFinding
)

// Event is one thing a run reports to subscribers (the desktop, the hub,
// `ferry watch`).
type Event = record.Event

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
