package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/go-rod/rod/lib/cdp"
)

// Posted calls: a CDP request written to the socket without waiting for its
// reply, so that the next request can follow it at once.
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
// and postedReplies takes their replies off the socket before rod sees them.

// postedReply is Chromium's answer to a posted call.
type postedReply struct {
	Result json.RawMessage `json:"result"`
	Error  *cdp.Error      `json:"error"`
	err    error           // the connection dropped before the reply came
	// raw is the whole message, undecoded, for a call posted with raw set
	// (see ioread.go): a large reply is then scanned once, by its reader.
	raw []byte
}

func (r postedReply) failure() error {
	if r.err != nil {
		return r.err
	}
	if r.Error != nil {
		return r.Error
	}
	return nil
}

type postedReplies struct {
	mu      sync.Mutex
	last    int32 // the last id handed out; ids count down from -1
	waiting map[int32]postedWaiter
	dropped error // set once the socket failed: later posts fail at once
}

// postedWaiter is where a posted call's reply goes, and whether it goes
// there undecoded.
type postedWaiter struct {
	ch  chan postedReply
	raw bool
}

type postedRequest struct {
	ID        int32  `json:"id"`
	SessionID string `json:"sessionId,omitempty"`
	Method    string `json:"method"`
	Params    any    `json:"params,omitempty"`
}

// post writes the request to ws and returns once it is written; its reply
// arrives on the returned channel (buffered: nobody has to read it).
func (pr *postedReplies) post(ws *cdp.WebSocket, sessionID, method string, params any) (<-chan postedReply, error) {
	_, ch, err := pr.postAs(ws, sessionID, method, params, false)
	return ch, err
}

// postAs is post that also returns the call's id (for forget) and, with
// raw, delivers the reply as the undecoded message.
func (pr *postedReplies) postAs(ws *cdp.WebSocket, sessionID, method string, params any, raw bool) (int32, <-chan postedReply, error) {
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
	ch := make(chan postedReply, 1)
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

func (pr *postedReplies) forget(id int32) {
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

// take reports whether msg is the reply to a posted call, delivering it if
// so. The reply to a call nobody waits for any more (forgotten) is dropped.
func (pr *postedReplies) take(msg []byte) bool {
	id, ok := postedID(msg)
	if !ok {
		return false
	}
	pr.mu.Lock()
	w, ok := pr.waiting[id]
	delete(pr.waiting, id)
	pr.mu.Unlock()
	if ok {
		var r postedReply
		if w.raw {
			r.raw = msg
		} else if err := json.Unmarshal(msg, &r); err != nil {
			r.err = err
		}
		w.ch <- r
	}
	return true
}

// drop fails every posted call still waiting, and all later ones.
func (pr *postedReplies) drop(err error) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.dropped == nil {
		pr.dropped = err
	}
	for id, w := range pr.waiting {
		w.ch <- postedReply{err: err}
		delete(pr.waiting, id)
	}
}

// wait returns the posted call's reply, or the reason it will not come.
func wait(ctx context.Context, ch <-chan postedReply) error {
	select {
	case r := <-ch:
		return r.failure()
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
