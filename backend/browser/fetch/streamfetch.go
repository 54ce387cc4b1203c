package fetch

import (
	"context"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
)

// WayStream is the streaming way: the page starts the fetch (its cookies,
// its origin), the Fetch domain pauses the response at its headers, and the
// body is taken as a browser-side stream (Fetch.takeResponseBodyAsStream)
// that Go drains with IO.read. Neither Chromium nor Go ever holds more than
// a chunk of the body; the page never sees it.
const WayStream Way = "fetch-stream"

// maxRedirects bounds the redirects a streamed fetch follows, as the
// Fetch standard does.
const maxRedirects = 20

// streamLock lets one streamed fetch at a time use a tab's Fetch domain:
// Fetch.enable replaces the tab's interception patterns, so two at once
// would undo each other. Entries are dropped when unused.
var streamLock = struct {
	sync.Mutex
	m map[*browser.Page]*tabSem
}{m: map[*browser.Page]*tabSem{}}

type tabSem struct {
	ch    chan struct{}
	users int
}

// lockStream takes p's stream slot, waiting at most until ctx ends or the
// page does, and returns its release.
func lockStream(ctx context.Context, p *browser.Page) (func(), error) {
	streamLock.Lock()
	s := streamLock.m[p]
	if s == nil {
		s = &tabSem{ch: make(chan struct{}, 1)}
		streamLock.m[p] = s
	}
	s.users++
	streamLock.Unlock()
	leave := func() {
		streamLock.Lock()
		if s.users--; s.users == 0 {
			delete(streamLock.m, p)
		}
		streamLock.Unlock()
	}
	select {
	case s.ch <- struct{}{}:
		return func() { <-s.ch; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, p.Failure(ctx, "wait for the tab's other download", ctx.Err())
	case <-p.Done():
		leave()
		return nil, p.Err()
	}
}

// fetchPattern escapes the Fetch domain's wildcards ('*', '?') and its
// escape character so that the pattern matches exactly u.
func fetchPattern(u string) string {
	var b strings.Builder
	for _, r := range u {
		if r == '*' || r == '?' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pausedResponse is the response of the page's fetch, paused at its
// headers.
type pausedResponse struct {
	id   proto.FetchRequestID
	meta Meta
}

// streamFetch is one streamed fetch in flight: the interception, the
// page's pending fetch, and the cleanup of both.
type streamFetch struct {
	p      *browser.Page
	ctx    context.Context // the caller's, for reads
	unlock func()

	stopEvents context.CancelFunc
	loopDone   chan struct{}
	paused     chan pausedResponse
	loopErr    chan error

	mu         sync.Mutex
	urls       []string // the addresses intercepted: the request's and its redirects'
	pageRes    chan fetchReply
	pageErr    chan error
	pageCancel context.CancelFunc // ends the wait for the page's fetch

	origin string // when set, a redirect elsewhere is refused

	handle string    // the body stream, once taken
	body   *ioReader // its reader
	reqID  proto.FetchRequestID
}

// fetchStream implements WayStream.
func fetchStream(ctx context.Context, p *browser.Page, rawURL string, opts BytesOptions) (io.ReadCloser, *Meta, error) {
	unlock, err := lockStream(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	// The page resolves the address as its fetch will (relative forms,
	// percent-encoding), so that the pattern matches what the network sees.
	var href string
	if err := p.EvalInto(ctx, &href, `(u) => { try { const x = new URL(u, location.href); x.hash = ''; return x.href; } catch (e) { return ''; } }`, rawURL); err != nil {
		unlock()
		return nil, nil, err
	}
	if href == "" {
		unlock()
		return nil, nil, &Error{URL: rawURL, Reason: "not a valid URL"}
	}

	s := &streamFetch{p: p, ctx: ctx, unlock: unlock, urls: []string{href},
		loopDone: make(chan struct{}), paused: make(chan pausedResponse, 1), loopErr: make(chan error, 1),
		pageRes: make(chan fetchReply, 1), pageErr: make(chan error, 1)}
	// Events are subscribed to before the interception starts, so the
	// pause cannot be missed. The subscription outlives the caller's ctx:
	// the loop keeps releasing requests it does not own until cleanup.
	evCtx, stopEvents := context.WithCancel(context.WithoutCancel(ctx))
	s.stopEvents = stopEvents
	events, stopSub := p.Events(evCtx)
	go func() {
		defer close(s.loopDone)
		defer stopSub()
		s.loop(evCtx, events)
	}()
	if err := s.enable(ctx); err != nil {
		s.cleanup(false)
		return nil, nil, err
	}

	// The fetch settles only after Ferry has answered the paused response
	// (fulfilled at the end, failed on abort), so it runs on its own.
	pageCtx, pageCancel := context.WithCancel(context.WithoutCancel(ctx))
	s.pageCancel = pageCancel
	go func() {
		var r fetchReply
		err := p.EvalInto(pageCtx, &r, `async (url, o) => {`+fetchPrelude+`
  try {
    const {meta} = await __fetch(url, o);
    return {meta};
  } catch (e) { return {error: String(e && e.message || e)}; }
}`, href, opts.args())
		if err != nil {
			s.pageErr <- err
			return
		}
		s.pageRes <- r
	}()

	var pr pausedResponse
	select {
	case pr = <-s.paused:
	case err := <-s.loopErr:
		s.cleanup(false)
		return nil, nil, err
	case r := <-s.pageRes:
		s.pageRes <- r // for cleanup
		s.cleanup(false)
		if err := r.err(rawURL); err != nil {
			return nil, nil, err
		}
		// Something in the page answered without the network seeing the
		// request in this tab: a service worker does that.
		return nil, nil, errs.New(errs.ArtifactFetchFailed, "the page's fetch was answered without reaching the network from this tab (a service worker?), so it could not be streamed")
	case err := <-s.pageErr:
		s.pageErr <- err
		s.cleanup(false)
		return nil, nil, err
	case <-ctx.Done():
		s.cleanup(false)
		return nil, nil, p.Failure(ctx, "wait for the response headers", ctx.Err())
	case <-p.Done():
		s.cleanup(false)
		return nil, nil, p.Err()
	}
	s.reqID = pr.id
	meta := pr.meta
	if opts.MaxBytes > 0 && meta.Size > opts.MaxBytes {
		s.cleanup(false)
		return nil, nil, tooLarge(opts.MaxBytes, meta.Size)
	}
	var stream proto.FetchTakeResponseBodyAsStreamResult
	if err := p.Exec(ctx, "Fetch.takeResponseBodyAsStream", proto.FetchTakeResponseBodyAsStream{RequestID: pr.id}, &stream); err != nil {
		s.cleanup(false)
		return nil, nil, err
	}
	s.handle = string(stream.Stream)

	want := int64(-1)
	if enc := meta.Headers["content-encoding"]; enc == "" || strings.EqualFold(enc, "identity") {
		// A decoded body has its own length: only an unencoded one can be
		// held to Content-Length.
		want = meta.Size
	}
	var got int64
	body := newIOReader(ctx, p, s.handle, opts.ChunkBytes, opts.ReadsInFlight)
	s.body = body
	next := func() ([]byte, bool, error) {
		b, eof, err := body.next()
		if err != nil {
			return nil, false, err
		}
		got += int64(len(b))
		if want >= 0 && (got > want || (eof && got != want)) {
			return nil, false, s.cutShort(got, want)
		}
		return b, eof, nil
	}
	cr := &chunkReader{next: next, max: opts.MaxBytes}
	sr := &streamReader{chunkReader: cr}
	cr.release = func() { s.cleanup(sr.complete) }
	return sr, &meta, nil
}

// streamReader frees the browser's side (stream, paused request, Fetch
// domain, the tab's slot) as soon as the body has been read, not only on
// Close; a body read to its end lets the page's fetch succeed.
type streamReader struct {
	*chunkReader
	complete bool
}

func (r *streamReader) Read(b []byte) (int, error) {
	n, err := r.chunkReader.Read(b)
	if err == io.EOF && !r.released {
		r.complete = true
		r.released = true
		r.release()
	}
	return n, err
}

// enable (re)starts interception at the response stage of every address
// of the fetch so far.
func (s *streamFetch) enable(ctx context.Context) error {
	s.mu.Lock()
	var pats []*proto.FetchRequestPattern
	for _, u := range s.urls {
		pats = append(pats, &proto.FetchRequestPattern{URLPattern: fetchPattern(u), RequestStage: proto.FetchRequestStageResponse})
	}
	s.mu.Unlock()
	return s.p.Exec(ctx, "Fetch.enable", proto.FetchEnable{Patterns: pats}, nil)
}

// loop hands the fetch's paused response to fetchStream, follows
// redirects, and lets every other paused request go on unchanged.
func (s *streamFetch) loop(ctx context.Context, events <-chan *rod.Message) {
	found := false
	redirects := 0
	fail := func(err error) {
		select {
		case s.loopErr <- err:
		default:
		}
	}
	for {
		var m *rod.Message
		select {
		case <-ctx.Done():
			return
		case mm, ok := <-events:
			if !ok {
				return
			}
			m = mm
		}
		if m.Method != "Fetch.requestPaused" {
			continue
		}
		var e proto.FetchRequestPaused
		if !m.Load(&e) || e.Request == nil {
			continue
		}
		s.mu.Lock()
		mine := !found && e.Request.URL == s.urls[len(s.urls)-1] && strings.EqualFold(e.Request.Method, "GET")
		s.mu.Unlock()
		if !mine {
			s.resume(ctx, e.RequestID)
			continue
		}
		status := 0
		if e.ResponseStatusCode != nil {
			status = *e.ResponseStatusCode
		}
		if e.ResponseErrorReason != "" || status == 0 {
			// The network failed: say so, then let the page see it. The
			// error is posted first, so that it is known before anything
			// the browser does next.
			found = true
			fail(&Error{URL: e.Request.URL, Reason: "the network failed: " + string(e.ResponseErrorReason)})
			s.resume(ctx, e.RequestID)
			continue
		}
		headers := joinHeaders(e.ResponseHeaders)
		if loc := headers["location"]; status >= 300 && status < 400 && loc != "" {
			next, err := url.Parse(e.Request.URL)
			if err == nil {
				next, err = next.Parse(loc)
			}
			if err != nil || redirects >= maxRedirects {
				found = true
				fail(&Error{URL: e.Request.URL, Reason: "a bad or endless redirect"})
				s.abort(ctx, e.RequestID)
				continue
			}
			if s.origin != "" && next.Scheme+"://"+next.Host != s.origin {
				found = true
				fail(&Error{URL: e.Request.URL, Reason: "the download redirected to another origin"})
				s.abort(ctx, e.RequestID)
				continue
			}
			redirects++
			next.Fragment, next.RawFragment = "", ""
			s.mu.Lock()
			s.urls = append(s.urls, next.String())
			s.mu.Unlock()
			if err := s.enable(ctx); err != nil {
				fail(err)
			}
			s.resume(ctx, e.RequestID)
			continue
		}
		found = true
		size := int64(-1)
		if v, ok := headers["content-length"]; ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n >= 0 {
				size = n
			}
		}
		s.paused <- pausedResponse{id: e.RequestID, meta: Meta{
			Status: status, StatusText: e.ResponseStatusText, URL: e.Request.URL, Headers: headers, Size: size}}
	}
}

// resume lets a paused request go on unchanged. It is not cut short when
// the loop is stopped: a request left paused would be let through whole by
// Fetch.disable.
func (s *streamFetch) resume(ctx context.Context, id proto.FetchRequestID) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_ = s.p.Exec(cctx, "Fetch.continueRequest", proto.FetchContinueRequest{RequestID: id}, nil)
}

// abort fails a paused request, so that it goes nowhere; like resume, it
// completes even when the loop is being stopped.
func (s *streamFetch) abort(ctx context.Context, id proto.FetchRequestID) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_ = s.p.Exec(cctx, "Fetch.failRequest", proto.FetchFailRequest{RequestID: id, ErrorReason: proto.NetworkErrorReasonAborted}, nil)
}

// joinHeaders lower-cases the names and joins repeated headers as fetch()
// does. Set-Cookie is left out, as fetch() leaves it out: it is a secret.
func joinHeaders(hs []*proto.FetchHeaderEntry) map[string]string {
	out := map[string]string{}
	for _, h := range hs {
		k := strings.ToLower(h.Name)
		if k == "set-cookie" || k == "set-cookie2" {
			continue
		}
		if v, ok := out[k]; ok {
			out[k] = v + ", " + h.Value
		} else {
			out[k] = h.Value
		}
	}
	return out
}

// crashProbe bounds the look at the tab when a body ends short.
const crashProbe = 2 * time.Second

// cutShort is the envelope of a body that did not end at its
// Content-Length: the tab's crash or closing when that is what cut it
// (the crash's event can trail the stream's end, so the tab is asked once),
// else a truncated body.
func (s *streamFetch) cutShort(got, want int64) error {
	ctx, cancel := context.WithTimeout(s.ctx, crashProbe)
	defer cancel()
	err := s.p.Exec(ctx, "Runtime.evaluate", proto.RuntimeEvaluate{Expression: "1"}, nil)
	if errs.Has(err, errs.TargetCrashed) || errs.Has(err, errs.TargetNotFound) {
		return err
	}
	if s.p.Err() != nil {
		return s.p.Err()
	}
	return truncated(got, want)
}

// cleanup closes the body stream, answers the paused response (an empty
// body when the body was read to its end, so the page's fetch succeeds;
// a failure otherwise), stops intercepting, waits briefly for the page's
// fetch to settle, and frees the tab's slot. Best effort, bounded by
// cleanupTimeout: the page may be gone.
func (s *streamFetch) cleanup(complete bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), cleanupTimeout)
	defer cancel()
	// The loop stops first, so that a response it paused after the caller
	// gave up is failed here rather than released to the page whole.
	s.stopEvents()
	<-s.loopDone
	if s.reqID == "" {
		select {
		case pr := <-s.paused:
			s.reqID = pr.id
		default:
		}
	}
	if s.body != nil {
		s.body.close()
	}
	if s.p.Err() == nil {
		if s.handle != "" {
			_ = s.p.Exec(ctx, "IO.close", proto.IOClose{Handle: proto.IOStreamHandle(s.handle)}, nil)
		}
		if s.reqID != "" {
			if complete {
				_ = s.p.Exec(ctx, "Fetch.fulfillRequest", proto.FetchFulfillRequest{RequestID: s.reqID, ResponseCode: 200,
					ResponseHeaders: []*proto.FetchHeaderEntry{{Name: "Content-Length", Value: "0"}}, Body: []byte{}}, nil)
			} else {
				_ = s.p.Exec(ctx, "Fetch.failRequest", proto.FetchFailRequest{RequestID: s.reqID, ErrorReason: proto.NetworkErrorReasonAborted}, nil)
			}
		}
		_ = s.p.Exec(ctx, "Fetch.disable", proto.FetchDisable{}, nil)
		select {
		case <-s.pageRes:
		case <-s.pageErr:
		case <-ctx.Done():
		case <-s.p.Done():
		}
	}
	if s.pageCancel != nil {
		s.pageCancel()
	}
	s.unlock()
}
