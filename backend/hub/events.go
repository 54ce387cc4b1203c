package hub

import (
	"context"
	"github.com/coder/websocket"
	"sync"
	"time"
)

// bus fans events out to subscribers. A subscriber that falls behind by its
// whole buffer is dropped (its overflow channel closes) rather than slowing
// the publisher: a WebSocket client then reconnects and reads the job state.
type bus struct {
	mu   sync.Mutex
	seq  uint64
	now  func() time.Time
	subs map[*subscriber]struct{}
}

type subscriber struct {
	ch       chan Event
	overflow chan struct{}
	allow    func(Event) bool
}

func newBus(now func() time.Time) *bus {
	return &bus{now: now, subs: map[*subscriber]struct{}{}}
}

func (b *bus) subscribe(buf int, allow func(Event) bool) *subscriber {
	s := &subscriber{ch: make(chan Event, buf), overflow: make(chan struct{}), allow: allow}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

func (b *bus) unsubscribe(s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[s]; ok {
		delete(b.subs, s)
		close(s.ch)
	}
}

// publish stamps ev with the next sequence number (and the time, when unset)
// and offers it to every subscriber allowed to see it.
func (b *bus) publish(ev Event) Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	ev.Seq = b.seq
	if ev.Time.IsZero() {
		ev.Time = b.now().UTC()
	}
	for s := range b.subs {
		if s.allow != nil && !s.allow(ev) {
			continue
		}
		select {
		case s.ch <- ev:
		default:
			delete(b.subs, s)
			close(s.overflow)
			close(s.ch)
		}
	}
	return ev
}

// pumpEvents relays the service's events into the bus until ctx ends, and ends
// the open streams of a client revoked. The hub trusts only JobID and
// ClientID for routing; it overwrites Seq.
func (s *Server) pumpEvents(ctx context.Context) {
	ch, err := s.svc.Events(ctx)
	if err != nil {
		s.log.Error("open event source", "err", err)
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-ch:
			if !ok {
				return
			}
			if ev.Type == EventClientRevoked && ev.Data != nil && ev.Data.Client != nil {
				// A revoked client's next request fails; its open streams end now.
				s.closeClientConns(ev.Data.Client.ID, websocket.StatusPolicyViolation, "client token revoked")
				s.limiter.forget(ev.Data.Client.ID)
			}
			s.bus.publish(ev)
		}
	}
}

// eventFilter returns what a caller may see: everything for the owner, its
// own jobs' events for a paired client.
func eventFilter(c Caller) func(Event) bool {
	if c.Owner {
		return nil
	}
	id := c.ClientID
	return func(ev Event) bool { return ev.ClientID == id }
}
