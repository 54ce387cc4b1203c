// Package browser drives Chromium over the DevTools protocol for Ferry: it
// launches a browser on Ferry's own persistent profile (package launch
// starts it) or attaches to one the user started, lists and opens tabs,
// hands out a tab by its CDP TargetID without activating it, types and
// clicks with trusted input, and captures response streams. Package fetch
// builds on it to fetch inside the page with the page's cookies.
//
// Every failure that reaches a caller is an errs envelope. A crashed tab, a
// navigation during an evaluate and a dropped connection come back as
// TargetCrashed, NavigationAborted and BrowserDisconnected within the caller's
// deadline: calls in flight are cancelled the moment Ferry learns of the
// event, never left waiting for a reply that will not come.
//
// Ferry works in the background: nothing here brings a tab to the front or
// focuses a window, but ShowTab, which the user asks for.
package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/internal/wsdial"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Browser is a connection to one Chromium, launched by Ferry or attached to.
// It is safe for concurrent use.
type Browser struct {
	rb     *rod.Browser
	client *cdp.Client
	ws     *cdp.WebSocket
	sock   *watchedSocket
	wsURL  string

	// life ends when the connection drops or Close is called; its cause is
	// the envelope every call in flight reports.
	life   context.Context
	finish context.CancelCauseFunc

	proc      *launch.Process // nil when attached: such a browser is never closed by Ferry
	closeOnce sync.Once
	closeErr  error

	attachMu sync.Mutex // one attach per target at a time
	mu       sync.Mutex
	pages    map[proto.TargetTargetID]*Page
	sessions map[proto.TargetSessionID]*Page

	productMu sync.Mutex
	userAgent string // Browser.getVersion's user agent, once read (see headless)

	downloadMu sync.Mutex // Browser.setDownloadBehavior is browser-wide: one download at a time

	background sync.WaitGroup // work started by Background; Close waits for it
}

// connect opens the DevTools websocket at wsURL and starts watching the
// browser's events. proc is the process Ferry launched, or nil.
func connect(ctx context.Context, wsURL string, proc *launch.Process) (*Browser, error) {
	if err := requireLoopback(wsURL); err != nil {
		return nil, err
	}
	b := &Browser{
		wsURL:    wsURL,
		proc:     proc,
		pages:    map[proto.TargetTargetID]*Page{},
		sessions: map[proto.TargetSessionID]*Page{},
	}
	b.life, b.finish = context.WithCancelCause(context.Background())

	b.ws = &cdp.WebSocket{}
	dialer := &wsdial.Dialer{}
	if strings.HasPrefix(wsURL, "ws://") {
		b.ws.Dialer = dialer
	}
	err := b.ws.Connect(ctx, wsURL, nil)
	dialer.Release()
	if err != nil {
		b.finish(nil)
		_ = closeSocket(b.ws)
		if ctx.Err() != nil {
			// The browser took the connection but did not answer in time.
			return nil, classify("connect to the browser", b.life, ctx, err)
		}
		return nil, errs.Wrap(err, errs.BrowserLaunchFailed, "connect to the browser's DevTools endpoint: %v", err).
			WithEvidence("endpoint", redactEndpoint(wsURL)).
			WithHint("check that the browser is running and that the address is current (it changes at every start)")
	}
	sock := &watchedSocket{ws: b.ws, onDrop: func(err error) {
		b.finish(errs.Wrap(err, errs.BrowserDisconnected, "the connection to the browser dropped").
			WithEvidence("endpoint", redactEndpoint(wsURL)))
	}}
	b.sock = sock
	b.client = cdp.New().Start(sock)
	b.rb = rod.New().Client(b.client).NoDefaultDevice().Context(b.life)

	// rod.Browser.Connect only starts its event pump and asks for target
	// discovery; run it under the caller's deadline.
	done := make(chan error, 1)
	go func() { done <- b.rb.Connect() }()
	select {
	case err := <-done:
		if err != nil {
			b.shutdownConn()
			return nil, classify("connect to the browser", b.life, ctx, err)
		}
	case <-ctx.Done():
		b.shutdownConn()
		return nil, classify("connect to the browser", b.life, ctx, ctx.Err())
	}
	go b.watch()
	return b, nil
}

// watch follows the browser-wide events that end a page's life.
func (b *Browser) watch() {
	for msg := range b.rb.Event() {
		switch msg.Method {
		case "Target.targetCrashed":
			var e proto.TargetTargetCrashed
			if msg.Load(&e) {
				b.endPage(b.pageByTarget(e.TargetID), errs.New(errs.TargetCrashed, "the tab crashed (%s)", e.Status).
					WithEvidence("target_id", string(e.TargetID)).WithEvidence("status", e.Status))
			}
		case "Inspector.targetCrashed":
			if p := b.pageBySession(msg.SessionID); p != nil {
				b.endPage(p, errs.New(errs.TargetCrashed, "the tab crashed").WithEvidence("target_id", string(p.id)))
			}
		case "Target.targetDestroyed":
			var e proto.TargetTargetDestroyed
			if msg.Load(&e) {
				b.endPage(b.pageByTarget(e.TargetID), errs.New(errs.TargetNotFound, "the tab was closed").
					WithEvidence("target_id", string(e.TargetID)))
			}
		case "Target.detachedFromTarget":
			var e proto.TargetDetachedFromTarget
			if msg.Load(&e) {
				if p := b.pageBySession(e.SessionID); p != nil {
					// A crash also detaches; give its own event a moment to
					// name the real reason before settling for "gone".
					go func() {
						select {
						case <-p.life.Done():
						case <-time.After(300 * time.Millisecond):
							b.endPage(p, errs.New(errs.TargetNotFound, "Ferry's connection to the tab was closed").
								WithEvidence("target_id", string(p.id)))
						}
					}()
				}
			}
		}
	}
}

func (b *Browser) pageByTarget(id proto.TargetTargetID) *Page {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pages[id]
}

func (b *Browser) pageBySession(id proto.TargetSessionID) *Page {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sessions[id]
}

// endPage cancels everything in flight on p with cause and forgets p, so the
// next Page call for the same TargetID attaches afresh (a crashed tab that the
// user reloads keeps its TargetID).
func (b *Browser) endPage(p *Page, cause error) {
	if p == nil {
		return
	}
	b.mu.Lock()
	if b.pages[p.id] == p {
		delete(b.pages, p.id)
	}
	if b.sessions[p.session] == p {
		delete(b.sessions, p.session)
	}
	b.mu.Unlock()
	p.end(cause)
}

// Call runs one browser-level CDP method (outside any tab's session) under
// ctx and decodes its result into result (which may be nil); op names the
// work in the error. Failures are envelopes: BrowserDisconnected when the
// connection is gone, Timeout or Cancelled when ctx ends, Internal when the
// browser refuses.
func (b *Browser) Call(ctx context.Context, op string, method string, params, result any) error {
	if err := context.Cause(b.life); err != nil {
		return classify(op, b.life, ctx, err)
	}
	raw, err := b.client.Call(ctx, "", method, params)
	if err != nil {
		return classify(op, b.life, ctx, err)
	}
	if result != nil {
		if err := json.Unmarshal(raw, result); err != nil {
			return errs.Wrap(err, errs.Internal, "%s: decode %s reply: %v", op, method, err)
		}
	}
	return nil
}

// Version returns the browser's product string, such as
// "Chrome/156.0.8078.108", for `ferry doctor`. It fails with
// BrowserDisconnected when the connection is gone.
func (b *Browser) Version(ctx context.Context) (string, error) {
	var v proto.BrowserGetVersionResult
	if err := b.Call(ctx, "read browser version", "Browser.getVersion", proto.BrowserGetVersion{}, &v); err != nil {
		return "", err
	}
	return v.Product, nil
}

// Launched reports whether Ferry started this browser (and so may close it).
func (b *Browser) Launched() bool { return b.proc != nil }

// PID is the process id of a browser Ferry launched, or 0 when attached.
func (b *Browser) PID() int {
	if b.proc == nil {
		return 0
	}
	return b.proc.PID()
}

// Endpoint is the DevTools websocket address in use.
func (b *Browser) Endpoint() string { return b.wsURL }

// Done is closed when the connection to the browser ends, by Close or by the
// browser going away; Err then says why.
func (b *Browser) Done() <-chan struct{} { return b.life.Done() }

// Err is nil while the browser is connected, then the envelope that ended it.
func (b *Browser) Err() error { return context.Cause(b.life) }

// Close ends Ferry's use of the browser. A browser Ferry launched is asked to
// quit (so the profile is flushed to disk), and killed if it has not exited
// within ctx or 10 s. A browser Ferry attached to is left running: only the
// connection is closed. Close is idempotent; it returns the error of the
// first call.
func (b *Browser) Close(ctx context.Context) error {
	b.closeOnce.Do(func() {
		b.waitBackground(ctx)
		if b.proc == nil {
			b.shutdownConn()
			return
		}
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		// Browser.close gets no reply when the browser exits first: ignore
		// its error and judge by the process.
		cctx, ccancel := context.WithTimeout(qctx, 2*time.Second)
		_, _ = b.client.Call(cctx, "", "Browser.close", proto.BrowserClose{})
		ccancel()
		b.closeErr = b.proc.Stop(qctx)
		b.shutdownConn()
	})
	return b.closeErr
}

// backgroundWait bounds how long Close waits for the work Background
// started.
const backgroundWait = 10 * time.Second

// Background runs fn on its own goroutine with a context that ends with the
// connection or after d. Close waits for the work so started, at most
// 10 s, so that a process that closes its browser before exiting leaves
// none of it half done: for best-effort clean-ups such as package fetch's
// of the download list.
func (b *Browser) Background(d time.Duration, fn func(ctx context.Context)) {
	b.background.Add(1)
	go func() {
		defer b.background.Done()
		ctx, cancel := context.WithTimeout(b.life, d)
		defer cancel()
		fn(ctx)
	}()
}

// waitBackground waits for the work Background started, at most until ctx
// ends or backgroundWait has passed.
func (b *Browser) waitBackground(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		b.background.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	case <-time.After(backgroundWait):
	}
}

// LockDownloads takes the browser's download behaviour, which
// Browser.setDownloadBehavior sets for the whole browser (or browser
// context), so that one download runs at a time; it returns the release.
func (b *Browser) LockDownloads() (unlock func()) {
	b.downloadMu.Lock()
	return b.downloadMu.Unlock
}

// shutdownConn closes the websocket and fails every call in flight.
func (b *Browser) shutdownConn() {
	b.finish(errs.New(errs.BrowserDisconnected, "Ferry closed its connection to the browser"))
	if b.ws != nil {
		_ = closeSocket(b.ws)
	}
}

func closeSocket(ws *cdp.WebSocket) (err error) {
	defer func() {
		if recover() != nil { // never connected: nothing to close
			err = nil
		}
	}()
	return ws.Close()
}

// redactEndpoint keeps host and port of a DevTools address: the browser id
// in the path is a capability to drive the browser.
func redactEndpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable address)"
	}
	return fmt.Sprintf("%s://%s", u.Scheme, u.Host)
}
