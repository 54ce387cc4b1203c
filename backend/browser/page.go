package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/posted"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Page is one tab Ferry is attached to. Its methods report failures as
// envelopes: TargetCrashed when the tab crashed, TargetNotFound when it was
// closed or detached, NavigationAborted when it navigated away from the
// document a call was working in, BrowserDisconnected when the browser went
// away, Timeout/Cancelled when the caller's context ended. Safe for
// concurrent use.
type Page struct {
	b          *Browser
	id         proto.TargetTargetID
	session    proto.TargetSessionID
	browserCtx proto.BrowserBrowserContextID

	life context.Context // ends when the tab crashes, closes or is detached
	end  context.CancelCauseFunc

	netMu    sync.Mutex
	netUsers int                                     // captures sharing the Network domain
	streams  map[proto.NetworkRequestID]*streamStart // see startStreaming

	focusMu    sync.Mutex
	focusHolds int  // HoldInput holds not yet released
	wasHidden  bool // the tab was hidden when the first hold began
	shown      bool // a headful window showed the tab when the first hold began (see keyclick.go)
}

func newPage(b *Browser, id proto.TargetTargetID, s proto.TargetSessionID, bctx proto.BrowserBrowserContextID) *Page {
	p := &Page{b: b, id: id, session: s, browserCtx: bctx}
	p.life, p.end = context.WithCancelCause(b.life)
	return p
}

// ID returns the tab's CDP TargetID.
func (p *Page) ID() string { return string(p.id) }

// Browser is the browser the tab is in.
func (p *Page) Browser() *Browser { return p.b }

// Version returns the product string of the browser the tab is in (see
// Browser.Version).
func (p *Page) Version(ctx context.Context) (string, error) { return p.b.Version(ctx) }

// ContextID is the id of the browser context the tab is in (see
// BrowserContext), "" for the default one.
func (p *Page) ContextID() proto.BrowserBrowserContextID { return p.browserCtx }

// Err is nil while the page is usable, then the envelope that ended it.
func (p *Page) Err() error { return context.Cause(p.life) }

// Done is closed when Ferry's use of the tab ends: it was detached or
// closed, it crashed, or the browser went away (Err says which).
func (p *Page) Done() <-chan struct{} { return p.life.Done() }

// Failure is the envelope a Page method reports for err, met while doing op
// for a caller whose context is ctx: the reason the tab or the browser
// ended (TargetCrashed, TargetNotFound, BrowserDisconnected) wins, then the
// end of ctx (Timeout, Cancelled), then err by its kind (NavigationAborted,
// TargetNotFound, BrowserDisconnected, Internal). An envelope stays as it
// is; a nil err is nil. For work built on the page, such as package
// fetch's.
func (p *Page) Failure(ctx context.Context, op string, err error) error {
	return classify(op, p.life, ctx, err)
}

// PostRaw writes method to the tab without waiting for its reply, which
// comes undecoded on the call (see package posted): for replies too large to
// be decoded twice, such as IO.read's. Errors: the connection's.
func (p *Page) PostRaw(method string, params any) (posted.Call, error) {
	return p.b.sock.replies.PostRaw(p.b.ws, string(p.session), method, params)
}

// do runs fn with a session client whose context ends with the caller's ctx
// or the page's life, whichever is first, and classifies its error.
func (p *Page) do(ctx context.Context, op string, fn func(s session) error) error {
	if p.life.Err() != nil {
		return classify(op, p.life, ctx, context.Cause(p.life))
	}
	opCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(p.life, func() { cancel(context.Cause(p.life)) })
	defer stop()
	err := fn(session{ctx: opCtx, c: p.b.client, id: p.session})
	if err == nil {
		return nil
	}
	// The page's own record of why it ended wins: it is set before the
	// call's context is cancelled, and a dropped socket fails calls with a
	// bare EOF.
	if cause := context.Cause(p.life); cause != nil {
		return classify(op, p.life, ctx, cause)
	}
	return classify(op, opCtx, ctx, err)
}

// Exec sends one CDP method to the tab and decodes its result into result
// (which may be nil). It is the escape hatch for methods this package does
// not wrap; failures are envelopes as for every Page method.
func (p *Page) Exec(ctx context.Context, method string, params, result any) error {
	return p.do(ctx, method, func(s session) error {
		raw, err := s.c.Call(s.ctx, string(s.id), method, params)
		if err != nil {
			return err
		}
		if result != nil {
			return json.Unmarshal(raw, result)
		}
		return nil
	})
}

// ExecIn is Exec in another session of the tab's connection (a frame of
// the tab attached with Target.setAutoAttach and flatten), its failures
// reported as the tab's.
func (p *Page) ExecIn(ctx context.Context, sessionID, method string, params, result any) error {
	return p.do(ctx, method, func(s session) error {
		raw, err := s.c.Call(s.ctx, sessionID, method, params)
		if err != nil {
			return err
		}
		if result != nil {
			return json.Unmarshal(raw, result)
		}
		return nil
	})
}

// SessionID is the tab's CDP session id.
func (p *Page) SessionID() string { return string(p.session) }

type evalParams struct {
	Expression    string `json:"expression"`
	ReturnByValue bool   `json:"returnByValue,omitempty"`
	AwaitPromise  bool   `json:"awaitPromise"`
	UserGesture   bool   `json:"userGesture"`
}

type evalReply struct {
	Result struct {
		Type     string          `json:"type"`
		Value    json.RawMessage `json:"value"`
		ObjectID string          `json:"objectId"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text      string `json:"text"`
		Exception *struct {
			Description string `json:"description"`
		} `json:"exception"`
	} `json:"exceptionDetails"`
}

// expression calls the JavaScript function source fn with args encoded as
// JSON, so no argument is ever spliced into code as text.
func expression(fn string, args []any) (string, error) {
	if args == nil {
		args = []any{}
	}
	a, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("encode script arguments: %w", err)
	}
	return "(" + fn + ").apply(null, " + string(a) + ")", nil
}

// Eval calls the JavaScript function fn (source text such as
// `(sel) => document.querySelector(sel)?.innerText`) in the tab's main frame
// with args, awaits a returned promise, and returns the result as JSON. It
// runs with a user gesture (so a download or execCommand is allowed) and does
// not activate the tab. A thrown exception is an Internal envelope wrapping
// a *ScriptError; a navigation during the call is NavigationAborted (the
// script is not run again in the new document).
func (p *Page) Eval(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	expr, err := expression(fn, args)
	if err != nil {
		return nil, errs.Wrap(err, errs.BadInput, "evaluate in the page: %v", err)
	}
	var reply evalReply
	err = p.do(ctx, "evaluate in the page", func(s session) error {
		raw, err := s.c.Call(s.ctx, string(s.id), "Runtime.evaluate",
			evalParams{Expression: expr, ReturnByValue: true, AwaitPromise: true, UserGesture: true})
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &reply); err != nil {
			return err
		}
		if d := reply.ExceptionDetails; d != nil {
			text := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				text = d.Exception.Description
			}
			return &ScriptError{Text: text}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(reply.Result.Value) == 0 {
		return json.RawMessage("null"), nil
	}
	return reply.Result.Value, nil
}

// EvalInto is Eval decoding the result into dst.
func (p *Page) EvalInto(ctx context.Context, dst any, fn string, args ...any) error {
	raw, err := p.Eval(ctx, fn, args...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return errs.Wrap(err, errs.Internal, "decode the page's answer: %v", err)
	}
	return nil
}

// Info returns the tab's current address and title.
func (p *Page) Info(ctx context.Context) (Target, error) {
	var res proto.TargetGetTargetInfoResult
	err := p.b.Call(ctx, "look up the tab", "Target.getTargetInfo", proto.TargetGetTargetInfo{TargetID: p.id}, &res)
	if err != nil {
		if cause := p.Err(); cause != nil {
			return Target{}, cause
		}
		return Target{}, err
	}
	return targetFromInfo(res.TargetInfo, nil), nil
}

// Navigate loads rawURL in the tab and waits until its document has loaded
// (the load event), without activating the tab. A navigation the browser
// refuses (bad address, connection refused) is NavigationAborted with the
// browser's reason as evidence.
func (p *Page) Navigate(ctx context.Context, rawURL string) error {
	var res proto.PageNavigateResult
	if err := p.Exec(ctx, "Page.navigate", proto.PageNavigate{URL: rawURL}, &res); err != nil {
		return err
	}
	if res.ErrorText != "" {
		return errs.New(errs.NavigationAborted, "load %s: %s", rawURL, res.ErrorText).
			WithEvidence("url", rawURL).WithEvidence("reason", res.ErrorText)
	}
	return p.waitLoaded(ctx)
}

// waitLoaded waits for the main frame's document to be complete, polling
// document.readyState: it needs no Page domain events and cannot miss a load
// that finished before it started looking.
func (p *Page) waitLoaded(ctx context.Context) error {
	for {
		var state string
		err := p.EvalInto(ctx, &state, `() => document.readyState`)
		if err == nil && state == "complete" {
			return nil
		}
		if err != nil && !errs.Has(err, errs.NavigationAborted) {
			return err
		}
		select {
		case <-ctx.Done():
			return classify("wait for the page to load", p.life, ctx, ctx.Err())
		case <-p.life.Done():
			return context.Cause(p.life)
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// Detach ends Ferry's session with the tab without closing it. Calls in
// flight on the page fail with TargetNotFound.
func (p *Page) Detach(ctx context.Context) error {
	err := p.b.Call(ctx, "detach from the tab", "Target.detachFromTarget",
		proto.TargetDetachFromTarget{SessionID: p.session}, nil)
	p.b.endPage(p, errs.New(errs.TargetNotFound, "Ferry detached from the tab").WithEvidence("target_id", string(p.id)))
	if errs.Has(err, errs.TargetNotFound) {
		return nil
	}
	return err
}

// Close closes the tab. Only for tabs Ferry opened.
func (p *Page) Close(ctx context.Context) error {
	err := p.b.Call(ctx, "close the tab", "Target.closeTarget", proto.TargetCloseTarget{TargetID: p.id}, nil)
	p.b.endPage(p, errs.New(errs.TargetNotFound, "Ferry closed the tab").WithEvidence("target_id", string(p.id)))
	if errs.Has(err, errs.TargetNotFound) {
		return nil
	}
	return err
}

func decodeBase64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }

func errorsIsDeadline(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.DeadlineExceeded)
}

// keepsTabs reports whether the browser still has tabs and answers, looked
// at three times over a second (a quitting browser closes its tabs one by
// one).
func (b *Browser) keepsTabs(ctx context.Context) bool {
	for i := 0; i < 3; i++ {
		if i > 0 {
			select {
			case <-b.life.Done():
				return false
			case <-ctx.Done():
				return false
			case <-time.After(500 * time.Millisecond):
			}
		}
		lctx, cancel := context.WithTimeout(ctx, time.Second)
		tabs, err := b.Targets(lctx, nil)
		cancel()
		if err != nil || len(tabs) == 0 {
			return false
		}
	}
	return true
}

// Lost reports why the page can no longer be used, waiting at most grace
// for it to end: nil while it stays usable, else the envelope that ended it.
// A browser that goes away takes its tabs with it, and its tabs may report
// their own end (crashed, detached) a moment before the connection drops:
// a tab that ended so is given a further 300 ms for the browser's end,
// which then wins (BrowserDisconnected), so that the caller tells a lost
// browser from a lost tab. A browser quitting on its own (its user closed
// its window, Browser.close) closes its tabs first and may take seconds
// to exit: when no tab of the browser is left, or it no longer answers, it
// is given up to 5 s more. It returns early when ctx ends.
func (p *Page) Lost(ctx context.Context, grace time.Duration) error {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.life.Done():
	case <-t.C:
	case <-ctx.Done():
	}
	cause := context.Cause(p.life)
	if cause == nil {
		return nil
	}
	if gone := context.Cause(p.b.life); gone != nil {
		return gone
	}
	bt := time.NewTimer(300 * time.Millisecond)
	defer bt.Stop()
	select {
	case <-p.b.life.Done():
		return context.Cause(p.b.life)
	case <-bt.C:
	case <-ctx.Done():
		return cause
	}
	if p.b.keepsTabs(ctx) {
		return cause // the browser goes on with its other tabs
	}
	qt := time.NewTimer(5 * time.Second)
	defer qt.Stop()
	select {
	case <-p.b.life.Done():
		return context.Cause(p.b.life)
	case <-qt.C:
	case <-ctx.Done():
	}
	return cause
}
