package browser

import (
	"context"
	"regexp"
	"strings"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/redact"
)

// Match selects the requests whose response bodies Capture delivers.
type Match struct {
	URL    *regexp.Regexp // matched against the request's full URL; nil matches any
	Method string         // e.g. "POST"; "" matches any
	// Sockets also delivers every message the tab's WebSockets receive
	// (SocketMessage), those of sockets opened before the capture too: a
	// site keeps one socket per page and moves long answers onto it.
	Sockets bool
}

func (m Match) matches(url, method string) bool {
	return (m.URL == nil || m.URL.MatchString(url)) && (m.Method == "" || strings.EqualFold(m.Method, method))
}

// StreamEventKind says what a StreamEvent carries.
type StreamEventKind int

// The kinds of StreamEvent, in the order a request produces them: one
// Start, any number of Data, one End.
const (
	StreamStart StreamEventKind = iota + 1
	StreamData
	StreamEnd
	// SocketMessage is one message a WebSocket of the tab received, whole
	// (Match.Sockets): RequestID names the socket, URL is its address when
	// the capture saw it open, Data the message (a binary one decoded).
	SocketMessage
)

// StreamEvent is one step of a captured response. Data holds raw bytes as
// they came off the wire: a chunk may end inside a multibyte character, so
// decode only after joining.
type StreamEvent struct {
	RequestID string
	Kind      StreamEventKind
	// Start only.
	URL     string
	Method  string
	Status  int
	Headers map[string]string
	// RequestBody is the body the request was sent with, when it had one
	// and the browser gave it (a POST's JSON).
	RequestBody []byte
	// Data and SocketMessage.
	Data []byte
	// End only: nil when the response completed; an envelope when it failed
	// or when the capture ended before it completed.
	Err error
}

// Sink receives a capture's events, in order, from one goroutine. It must
// not block for long: events queue behind it.
type Sink func(StreamEvent)

// Capture is a running network capture on one tab.
type Capture struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// Stop ends the capture and waits until the sink has received its last
// event: requests still open get an End whose Err is Cancelled.
func (c *Capture) Stop() {
	c.cancel()
	<-c.done
}

// Done is closed when the capture has ended (Stop, ctx, or the tab or
// browser going away) and the sink has had its last event.
func (c *Capture) Done() <-chan struct{} { return c.done }

type captured struct {
	url, method string
	body        []byte
	bodyOmitted bool // the request had a body the event left out (too long)
	contentType string
	bytes       int
	streaming   bool
}

// Capture delivers the response bodies of the tab's requests that match m
// to sink, chunk by chunk as they arrive, until ctx ends or Stop is called.
// It asks Chromium to stream each matching response
// (Network.streamResourceContent at responseReceived) so that the bytes are
// kept and arrive with Network.dataReceived; an empty stream falls back to
// Network.getResponseBody at the end; a redirect keeps its requestId and is
// followed. Requests already under way when Capture starts are not seen.
func (p *Page) Capture(ctx context.Context, m Match, sink Sink) (*Capture, error) {
	cctx, cancel := context.WithCancel(ctx)
	events, stop := p.b.subscribe(cctx, p.session, false)
	if err := p.enableNetwork(cctx); err != nil {
		stop()
		cancel()
		return nil, err
	}
	c := &Capture{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer stop()
		defer p.disableNetwork()
		p.captureLoop(cctx, ctx, m, sink, events)
	}()
	return c, nil
}

func (p *Page) captureLoop(cctx, parent context.Context, m Match, sink Sink, events <-chan rodMessage) {
	open := map[proto.NetworkRequestID]*captured{}
	sockets := map[proto.NetworkRequestID]string{} // the address of each socket seen opening
	endAll := func(err error) {
		for id := range open {
			sink(StreamEvent{RequestID: string(id), Kind: StreamEnd, Err: err})
		}
	}
	data := func(id proto.NetworkRequestID, c *captured, b []byte) {
		if len(b) == 0 {
			return
		}
		c.bytes += len(b)
		sink(StreamEvent{RequestID: string(id), Kind: StreamData, Data: b})
	}
	for {
		var msg rodMessage
		select {
		case <-cctx.Done():
			endAll(p.captureEndCause(parent))
			return
		case <-p.life.Done():
			endAll(context.Cause(p.life))
			return
		case mm, ok := <-events:
			if !ok {
				endAll(p.captureEndCause(parent))
				return
			}
			msg = mm
		}
		switch msg.Method {
		case "Network.requestWillBeSent":
			var e proto.NetworkRequestWillBeSent
			if !msg.Load(&e) || e.Request == nil {
				continue
			}
			if c, ok := open[e.RequestID]; ok {
				c.url = e.Request.URL // a redirect: same requestId, new address
				continue
			}
			if m.matches(e.Request.URL, e.Request.Method) {
				c := &captured{url: e.Request.URL, method: e.Request.Method}
				switch {
				case e.Request.PostData != "":
					c.body = []byte(e.Request.PostData)
				case len(e.Request.PostDataEntries) > 0:
					for _, pe := range e.Request.PostDataEntries {
						c.body = append(c.body, pe.Bytes...)
					}
				default:
					c.bodyOmitted = e.Request.HasPostData
				}
				open[e.RequestID] = c
			}
		case "Network.responseReceived":
			var e proto.NetworkResponseReceived
			if !msg.Load(&e) {
				continue
			}
			c, ok := open[e.RequestID]
			if !ok || e.Response == nil {
				continue
			}
			hs := map[string]string{}
			for k, v := range e.Response.Headers {
				hs[strings.ToLower(k)] = v.Str()
			}
			c.contentType = hs["content-type"]
			if c.bodyOmitted {
				c.body = p.requestBody(cctx, e.RequestID)
			}
			sink(StreamEvent{RequestID: string(e.RequestID), Kind: StreamStart, URL: c.url, Method: c.method,
				Status: e.Response.Status, Headers: hs, RequestBody: c.body})
			if buffered, err := p.startStreaming(cctx, e.RequestID); err == nil {
				c.streaming = true
				data(e.RequestID, c, buffered)
			}
		case "Network.dataReceived":
			var e proto.NetworkDataReceived
			if !msg.Load(&e) {
				continue
			}
			if c, ok := open[e.RequestID]; ok {
				data(e.RequestID, c, e.Data)
			}
		case "Network.loadingFinished":
			var e proto.NetworkLoadingFinished
			if !msg.Load(&e) {
				continue
			}
			c, ok := open[e.RequestID]
			if !ok {
				continue
			}
			delete(open, e.RequestID)
			var err error
			if c.bytes == 0 {
				// Streaming was refused or nothing came through it: the
				// body may still be in the buffer.
				var body proto.NetworkGetResponseBodyResult
				if err = p.Exec(cctx, "Network.getResponseBody", proto.NetworkGetResponseBody{RequestID: e.RequestID}, &body); err == nil {
					b := recoverBytes(body.Body, c.contentType)
					if body.Base64Encoded {
						b, err = decodeBase64(body.Body)
					}
					data(e.RequestID, c, b)
				} else if c.streaming {
					err = nil // streamed and empty: an empty body, not a failure
				}
			}
			if err != nil {
				err = errs.Wrap(err, errs.Internal, "read the captured body of %s: %v", redact.URL(c.url), err)
			}
			sink(StreamEvent{RequestID: string(e.RequestID), Kind: StreamEnd, Err: err})
		case "Network.webSocketCreated":
			var e proto.NetworkWebSocketCreated
			if m.Sockets && msg.Load(&e) {
				sockets[e.RequestID] = e.URL
			}
		case "Network.webSocketClosed":
			var e proto.NetworkWebSocketClosed
			if msg.Load(&e) {
				delete(sockets, e.RequestID)
			}
		case "Network.webSocketFrameReceived":
			var e proto.NetworkWebSocketFrameReceived
			if !m.Sockets || !msg.Load(&e) || e.Response == nil {
				continue
			}
			b := []byte(e.Response.PayloadData)
			if e.Response.Opcode != 1 { // not text: DevTools hands it over in base64
				d, err := decodeBase64(e.Response.PayloadData)
				if err != nil {
					continue
				}
				b = d
			}
			sink(StreamEvent{RequestID: string(e.RequestID), Kind: SocketMessage, URL: sockets[e.RequestID], Data: b})
		case "Network.loadingFailed":
			var e proto.NetworkLoadingFailed
			if !msg.Load(&e) {
				continue
			}
			c, ok := open[e.RequestID]
			if !ok {
				continue
			}
			delete(open, e.RequestID)
			code := errs.GenerationError
			if e.Canceled {
				code = errs.Cancelled
			}
			sink(StreamEvent{RequestID: string(e.RequestID), Kind: StreamEnd,
				Err: errs.New(code, "the response of %s failed: %s", redact.URL(c.url), e.ErrorText).
					WithEvidence("reason", e.ErrorText).WithStage(errs.StagePoll)})
		}
	}
}

// captureEndCause says why a capture ended while requests were open.
func (p *Page) captureEndCause(parent context.Context) error {
	if cause := p.Err(); cause != nil {
		return cause
	}
	if cause := context.Cause(p.b.life); cause != nil {
		return cause
	}
	if errorsIsDeadline(parent) {
		return errs.New(errs.Timeout, "the capture's deadline passed before the response ended")
	}
	return errs.New(errs.Cancelled, "the capture was stopped before the response ended")
}

// cleanupTimeout bounds the calls that must complete even when the capture
// has ended: the stream's start that its other captures share, and turning
// the Network domain off.
const cleanupTimeout = 5e9 // 5 s

// streamStart is the answer to the page's one Network.streamResourceContent
// for a request.
type streamStart struct {
	done     chan struct{}
	buffered []byte
	err      error
}

// startStreaming asks Chromium to stream a response's body and returns the
// bytes it had buffered until then; the rest comes with dataReceived, to
// every capture of the page. Chromium answers every such call with the
// whole body so far, so the page asks once per request and every capture
// of it (a run's retry while the refused turn's capture is still open) gets
// that first answer: a second call would hand it bytes that dataReceived
// already brought. Errors: the call's (streaming refused: the body is read
// at the end instead), or ctx's.
func (p *Page) startStreaming(ctx context.Context, id proto.NetworkRequestID) ([]byte, error) {
	p.netMu.Lock()
	s, asked := p.streams[id]
	if !asked {
		s = &streamStart{done: make(chan struct{})}
		if p.streams == nil {
			p.streams = map[proto.NetworkRequestID]*streamStart{}
		}
		p.streams[id] = s
	}
	p.netMu.Unlock()
	if !asked {
		// The answer serves every capture of the page: one capture
		// stopping does not cut it short.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		var res proto.NetworkStreamResourceContentResult
		s.err = p.Exec(cctx, "Network.streamResourceContent", proto.NetworkStreamResourceContent{RequestID: id}, &res)
		s.buffered = res.BufferedData
		close(s.done)
	}
	select {
	case <-s.done:
		return s.buffered, s.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// requestBody asks the browser for the body of a request whose event left
// it out; nil when the browser no longer has it.
func (p *Page) requestBody(ctx context.Context, id proto.NetworkRequestID) []byte {
	ctx, cancel := context.WithTimeout(ctx, cleanupTimeout)
	defer cancel()
	var res proto.NetworkGetRequestPostDataResult
	if err := p.Exec(ctx, "Network.getRequestPostData", proto.NetworkGetRequestPostData{RequestID: id}, &res); err != nil {
		return nil
	}
	return []byte(res.PostData)
}

// enableNetwork turns the Network domain on for the first capture of the
// page; later captures share it.
func (p *Page) enableNetwork(ctx context.Context) error {
	p.netMu.Lock()
	defer p.netMu.Unlock()
	if p.netUsers == 0 {
		if err := p.Exec(ctx, "Network.enable", proto.NetworkEnable{}, nil); err != nil {
			return err
		}
	}
	p.netUsers++
	return nil
}

func (p *Page) disableNetwork() {
	p.netMu.Lock()
	defer p.netMu.Unlock()
	p.netUsers--
	if p.netUsers == 0 {
		p.streams = nil
	}
	if p.netUsers == 0 && p.life.Err() == nil {
		ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
		defer cancel()
		_ = p.Exec(ctx, "Network.disable", proto.NetworkDisable{}, nil)
	}
}
