package browser

import (
	"context"
	"sync"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/posted"
)

// watchedSocket wraps rod's websocket so that Ferry learns of a dropped
// connection the moment the read loop does, before any pending call is
// failed: calls can then report BrowserDisconnected instead of a bare EOF.
// It also takes the replies to posted calls (package posted) off the
// socket.
type watchedSocket struct {
	ws      *cdp.WebSocket
	once    sync.Once
	onDrop  func(error)
	replies posted.Replies
}

func (w *watchedSocket) Send(b []byte) error { return w.ws.Send(b) }

func (w *watchedSocket) Read() ([]byte, error) {
	for {
		b, err := w.ws.Read()
		if err != nil {
			w.once.Do(func() { w.onDrop(err) })
			w.replies.Drop(err)
			return b, err
		}
		if !w.replies.Take(b) {
			return b, nil
		}
	}
}

// post writes one CDP request without waiting for its reply (package
// posted).
func (w *watchedSocket) post(sessionID, method string, params any) (<-chan posted.Reply, error) {
	return w.replies.Post(w.ws, sessionID, method, params)
}

// session is a proto.Client bound to one CDP session and one context, so that
// proto requests (proto.RuntimeEvaluate{...}.Call(s)) honour the caller's
// deadline and go to the right target.
type session struct {
	ctx context.Context
	c   *cdp.Client
	id  proto.TargetSessionID
}

func (s session) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	return s.c.Call(ctx, sessionID, method, params)
}

func (s session) GetSessionID() proto.TargetSessionID { return s.id }

func (s session) GetContext() context.Context { return s.ctx }
