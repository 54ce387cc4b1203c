// Package frames keeps a tab's out-of-process frames (cross-site iframes
// under site isolation, which the tab's page cannot reach and whose frame
// tree does not list them) attached through the DevTools target
// auto-attach, and evaluates read-only scripts in them.
package frames

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/go-rod/rod/lib/proto"

	"github.com/go-rod/rod"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Target is a frame of a tab that runs in a process of its own (a
// cross-site iframe under site isolation): the tab's page cannot reach
// into it, and its frame tree does not list it.
type Target struct {
	TargetID  string
	SessionID string
	URL       string
}

// Watch keeps a tab's out-of-process frames attached, nested ones
// too, through Target.setAutoAttach {autoAttach: true,
// waitForDebuggerOnStart: false, flatten: true} on the tab and on each
// frame, and lists the ones attached now. Close ends it.
type Watch struct {
	p      *browser.Page
	mu     sync.Mutex
	frames map[proto.TargetSessionID]Target
	stop   func()
}

// Start starts attaching tab p's out-of-process frames. Errors: the
// Page's envelopes.
func Start(ctx context.Context, p *browser.Page) (*Watch, error) {
	w := &Watch{p: p, frames: map[proto.TargetSessionID]Target{}}
	events, stop := p.Browser().Events(context.WithoutCancel(ctx))
	w.stop = stop
	go w.follow(ctx, events)
	if err := p.Exec(ctx, "Target.setAutoAttach", autoAttach(true), nil); err != nil {
		stop()
		return nil, err
	}
	return w, nil
}

func autoAttach(on bool) proto.TargetSetAutoAttach {
	return proto.TargetSetAutoAttach{AutoAttach: on, WaitForDebuggerOnStart: false, Flatten: true}
}

// follow keeps the list of attached frames from the browser's events: a
// frame attached to the tab or to one of its frames joins, a detached one
// leaves, one that navigates keeps its new address.
func (w *Watch) follow(ctx context.Context, events <-chan *rod.Message) {
	for msg := range events {
		switch msg.Method {
		case "Target.attachedToTarget":
			var e proto.TargetAttachedToTarget
			if !msg.Load(&e) || e.TargetInfo == nil || e.TargetInfo.Type != "iframe" || !w.ours(msg.SessionID) {
				continue
			}
			w.mu.Lock()
			w.frames[e.SessionID] = Target{TargetID: string(e.TargetInfo.TargetID), SessionID: string(e.SessionID), URL: e.TargetInfo.URL}
			w.mu.Unlock()
			// Its own cross-site frames attach to it.
			sess := e.SessionID
			go func() {
				_ = w.p.ExecIn(context.WithoutCancel(ctx), string(sess), "Target.setAutoAttach", autoAttach(true), nil)
			}()
		case "Target.detachedFromTarget":
			var e proto.TargetDetachedFromTarget
			if msg.Load(&e) {
				w.mu.Lock()
				delete(w.frames, e.SessionID)
				w.mu.Unlock()
			}
		case "Target.targetInfoChanged":
			var e proto.TargetTargetInfoChanged
			if !msg.Load(&e) || e.TargetInfo == nil {
				continue
			}
			w.mu.Lock()
			for s, f := range w.frames {
				if f.TargetID == string(e.TargetInfo.TargetID) {
					f.URL = e.TargetInfo.URL
					w.frames[s] = f
				}
			}
			w.mu.Unlock()
		}
	}
}

// ours reports whether session is the tab's or one of its frames'.
func (w *Watch) ours(session proto.TargetSessionID) bool {
	if string(session) == w.p.SessionID() {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.frames[session]
	return ok
}

// Frames lists the frames attached now.
func (w *Watch) Frames() []Target {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Target, 0, len(w.frames))
	for _, f := range w.frames {
		out = append(out, f)
	}
	return out
}

// EvalInto calls the JavaScript function fn with args in frame f's
// document, as Page.EvalInto does in the tab's, and decodes the result
// into dst. Errors: the Page's envelopes (TargetNotFound when the frame
// went away); Internal for a script that threw.
func (w *Watch) EvalInto(ctx context.Context, f Target, dst any, fn string, args ...any) error {
	if args == nil {
		args = []any{}
	}
	a, err := json.Marshal(args)
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "evaluate in a frame: %v", err)
	}
	var reply struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{"expression": "(" + fn + ").apply(null, " + string(a) + ")", "returnByValue": true, "awaitPromise": true}
	if err := w.p.ExecIn(ctx, f.SessionID, "Runtime.evaluate", params, &reply); err != nil {
		return err
	}
	if d := reply.ExceptionDetails; d != nil {
		return errs.New(errs.Internal, "the script threw in a frame: %s", d.Text)
	}
	if len(reply.Result.Value) == 0 {
		reply.Result.Value = json.RawMessage("null")
	}
	if err := json.Unmarshal(reply.Result.Value, dst); err != nil {
		return errs.Wrap(err, errs.Internal, "decode the frame's answer: %v", err)
	}
	return nil
}

// Close stops attaching the tab's frames, best effort.
func (w *Watch) Close(ctx context.Context) {
	w.stop()
	_ = w.p.Exec(ctx, "Target.setAutoAttach", autoAttach(false), nil)
}
