package browser

import (
	"context"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

type rodMessage = *rod.Message

// Events delivers the browser's CDP events, of every session, from now on
// until ctx ends or the returned stop is called. The channel is buffered
// without bound by rod, so a slow reader never stalls the connection.
func (b *Browser) Events(ctx context.Context) (<-chan *rod.Message, func()) {
	return b.subscribe(ctx, "", true)
}

// Events delivers the tab's CDP events from now on until ctx ends or the
// returned stop is called, as Browser.Events does.
func (p *Page) Events(ctx context.Context) (<-chan *rod.Message, func()) {
	return p.b.subscribe(ctx, p.session, false)
}

// subscribe delivers the browser's CDP events from now on until ctx ends or
// the returned stop is called. With a non-empty session only that session's
// events are delivered; the empty session delivers browser-level events.
// The channel is buffered without bound by rod, so a slow reader never
// stalls the connection.
func (b *Browser) subscribe(ctx context.Context, session proto.TargetSessionID, all bool) (<-chan *rod.Message, func()) {
	sctx, cancel := context.WithCancel(ctx)
	src := b.rb.Context(sctx).Event()
	dst := make(chan *rod.Message, 64)
	go func() {
		defer close(dst)
		for m := range src {
			if !all && m.SessionID != session {
				continue
			}
			select {
			case dst <- m:
			case <-sctx.Done():
				return
			}
		}
	}()
	return dst, cancel
}
