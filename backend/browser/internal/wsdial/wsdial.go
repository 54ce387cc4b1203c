// Package wsdial dials the DevTools websocket for rod with the bounds rod
// does not set: the opening handshake, which rod reads without a deadline,
// ends with the context of the dial (a port that takes the connection but
// never answers, such as a browser that stopped responding, is then a
// timeout, not a hang), and every write is bounded by WriteTimeout.
package wsdial

import (
	"context"
	"net"
	"sync"
	"time"
)

// WriteTimeout bounds one write to the DevTools socket. rod writes a
// request without its caller's context, so a browser that stopped taking
// bytes off its socket (hung, or stopped in a debugger) would hold the
// caller past any deadline once the socket's buffers are full: after this
// long the write fails and the connection drops.
const WriteTimeout = 30 * time.Second

// Dialer is a cdp.Dialer for ws:// addresses. Use one per connection and
// call Release once rod's Connect returned.
type Dialer struct {
	mu       sync.Mutex
	conn     net.Conn
	stopCtx  func() bool // ends the dial context's hold on conn
	released bool
}

// DialContext dials addr; until Release, the end of ctx fails the
// connection's reads and writes at once.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	bc := &boundedConn{Conn: c}
	// Only once ctx has ended, so that the caller then finds ctx.Err() set
	// (a deadline of the connection's own could pass a moment earlier).
	d.mu.Lock()
	d.conn = bc
	d.stopCtx = context.AfterFunc(ctx, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if !d.released {
			_ = c.SetDeadline(time.Unix(1, 0)) // past: the handshake's read fails now
		}
	})
	d.mu.Unlock()
	return bc, nil
}

// Release lifts the dial's context from the connection once the handshake
// is over: from then on calls carry their own contexts.
func (d *Dialer) Release() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.released = true
	if d.stopCtx != nil {
		d.stopCtx()
	}
	if d.conn != nil {
		_ = d.conn.SetDeadline(time.Time{})
	}
}

// boundedConn is the DevTools connection with each write bounded by
// WriteTimeout.
type boundedConn struct{ net.Conn }

func (c *boundedConn) Write(b []byte) (int, error) {
	_ = c.Conn.SetWriteDeadline(time.Now().Add(WriteTimeout))
	return c.Conn.Write(b)
}
