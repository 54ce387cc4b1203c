// Package posted sends CDP requests without waiting for their replies, so
// that the next request can follow at once, and takes those replies off the
// socket before rod reads it. The browser package posts the mouse move of a
// click through it, and package fetch the reads of a body it drains.
//
// Why: Chromium acknowledges Input.dispatchMouseEvent only when the renderer
// has dispatched the event, and the renderer dispatches mouse moves aligned
// to its next animation frame (blink's MainThreadEventQueue). A tab in the
// background (hidden) draws no frames, so a move waits for the queue's 5 s
// fallback timer; a press or release is not frame-aligned, and dispatching
// it flushes the moves queued before it, in order. Posting the move and
// following it with the press therefore gives the page the same sequence a
// visible tab gets, in milliseconds, without making the tab visible.
//
// rod's client numbers its requests upwards from 1 and owns every reply it
// reads; posted requests take negative ids (Chromium accepts any 32-bit id),
// and Replies takes their replies off the socket before rod sees them.
package posted

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/go-rod/rod/lib/cdp"
)

// Reply is Chromium's answer to a posted call.
type Reply struct {
	Result json.RawMessage `json:"result"`
	Error  *cdp.Error      `json:"error"`
	err    error           // the connection dropped before the reply came
	// Raw is the whole message, undecoded, for a call posted with PostRaw
	// (package fetch's IO.read): a large reply is then scanned once, by its
	// reader.
	Raw []byte `json:"-"`
}

// Err is why the call failed: the connection dropped before its reply
// came, or Chromium answered with an error (a *cdp.Error; never looked for
// in a Raw reply, which is not decoded); nil otherwise.
func (r Reply) Err() error {
	if r.err != nil {
		return r.err
	}
	if r.Error != nil {
		return r.Error
	}
	return nil
}

// Replies are the calls posted on one connection that wait for their
// replies. The zero value is ready to use.
type Replies struct {
	mu      sync.Mutex
	last    int32 // the last id handed out; ids count down from -1
	waiting map[int32]postedWaiter
	dropped error // set once the socket failed: later posts fail at once
}

// postedWaiter is where a posted call's reply goes, and whether it goes
// there undecoded.
type postedWaiter struct {
	ch  chan Reply
	raw bool
}

type postedRequest struct {
	ID        int32  `json:"id"`
	SessionID string `json:"sessionId,omitempty"`
	Method    string `json:"method"`
	Params    any    `json:"params,omitempty"`
}

// Post writes the request to ws and returns once it is written; its reply
// arrives on the returned channel (buffered: nobody has to read it).
// Errors: the connection's, or the one it dropped with.
func (pr *Replies) Post(ws *cdp.WebSocket, sessionID, method string, params any) (<-chan Reply, error) {
	_, ch, err := pr.postAs(ws, sessionID, method, params, false)
	return ch, err
}

// Call is a call posted with PostRaw, on its way.
type Call struct {
	// Reply is where its reply arrives, undecoded (Reply.Raw).
	Reply <-chan Reply
	id    int32
	from  *Replies
}

// Forget gives the call up: its reply is dropped when it comes.
func (c Call) Forget() { c.from.forget(c.id) }

// PostRaw is Post delivering the reply as the undecoded message, for a
// reply its reader scans itself.
func (pr *Replies) PostRaw(ws *cdp.WebSocket, sessionID, method string, params any) (Call, error) {
	id, ch, err := pr.postAs(ws, sessionID, method, params, true)
	return Call{Reply: ch, id: id, from: pr}, err
}

// postAs is Post that also returns the call's id (for forget) and, with
// raw, delivers the reply as the undecoded message.
func (pr *Replies) postAs(ws *cdp.WebSocket, sessionID, method string, params any, raw bool) (int32, <-chan Reply, error) {
	pr.mu.Lock()
	if pr.dropped != nil {
		pr.mu.Unlock()
		return 0, nil, pr.dropped
	}
	pr.last--
	if pr.last >= 0 { // wrapped past the most negative id
		pr.last = -1
	}
	id := pr.last
	ch := make(chan Reply, 1)
	if pr.waiting == nil {
		pr.waiting = map[int32]postedWaiter{}
	}
	pr.waiting[id] = postedWaiter{ch: ch, raw: raw}
	pr.mu.Unlock()

	data, err := json.Marshal(postedRequest{ID: id, SessionID: sessionID, Method: method, Params: params})
	if err == nil {
		err = ws.Send(data)
	}
	if err != nil {
		pr.forget(id)
		return 0, nil, err
	}
	return id, ch, nil
}

func (pr *Replies) forget(id int32) {
	pr.mu.Lock()
	delete(pr.waiting, id)
	pr.mu.Unlock()
}

// postedIDMarker is how every reply to a posted call starts to look once its
// id is read: replies are small, so only small messages holding it are
// decoded (a multi-megabyte event is never parsed twice).
var postedIDMarker = []byte(`"id":-`)

const maxPostedReply = 4096

// postedPrefix is how Chromium begins every reply to a posted call: the id
// comes first. A large reply (an IO.read chunk) is recognised by it alone.
var postedPrefix = []byte(`{"id":-`)

// postedID is the id of a reply to a posted call in msg, if it is one.
func postedID(msg []byte) (int32, bool) {
	if rest, ok := bytes.CutPrefix(msg, postedPrefix); ok {
		n := int64(0)
		i := 0
		for ; i < len(rest) && i < 11 && rest[i] >= '0' && rest[i] <= '9'; i++ {
			n = n*10 + int64(rest[i]-'0')
		}
		if i > 0 && i < len(rest) && (rest[i] == ',' || rest[i] == '}') && -n >= -1<<31 {
			return int32(-n), true
		}
	}
	if len(msg) > maxPostedReply || !bytes.Contains(msg, postedIDMarker) {
		return 0, false
	}
	var head struct {
		ID *int64 `json:"id"`
	}
	if json.Unmarshal(msg, &head) != nil || head.ID == nil || *head.ID >= 0 || *head.ID < -1<<31 {
		return 0, false
	}
	return int32(*head.ID), true
}

// Take reports whether msg is the reply to a posted call, delivering it if
// so; the socket's reader gives every message here before rod sees it. The
// reply to a call nobody waits for any more (forgotten) is dropped.
func (pr *Replies) Take(msg []byte) bool {
	id, ok := postedID(msg)
	if !ok {
		return false
	}
	pr.mu.Lock()
	w, ok := pr.waiting[id]
	delete(pr.waiting, id)
	pr.mu.Unlock()
	if ok {
		var r Reply
		if w.raw {
			r.Raw = msg
		} else if err := json.Unmarshal(msg, &r); err != nil {
			r.err = err
		}
		w.ch <- r
	}
	return true
}

// Drop fails every posted call still waiting, and all later ones, with
// err: the socket's read failed.
func (pr *Replies) Drop(err error) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.dropped == nil {
		pr.dropped = err
	}
	for id, w := range pr.waiting {
		w.ch <- Reply{err: err}
		delete(pr.waiting, id)
	}
}

// Wait returns the error of the posted call's reply (Reply.Err), or
// context.Cause(ctx) when ctx ends first.
func Wait(ctx context.Context, ch <-chan Reply) error {
	select {
	case r := <-ch:
		return r.Err()
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
