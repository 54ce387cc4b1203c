package browser

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// recorder is a Sink that keeps what it was given.
type recorder struct {
	mu     sync.Mutex
	events []StreamEvent
	ended  chan struct{}
}

func newRecorder() *recorder { return &recorder{ended: make(chan struct{}, 16)} }

func (r *recorder) sink(e StreamEvent) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	if e.Kind == StreamEnd {
		r.ended <- struct{}{}
	}
}

func (r *recorder) snapshot() []StreamEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]StreamEvent(nil), r.events...)
}

func (r *recorder) body() []byte {
	var b []byte
	for _, e := range r.snapshot() {
		b = append(b, e.Data...)
	}
	return b
}

func (r *recorder) waitEnd(t *testing.T) StreamEvent {
	t.Helper()
	select {
	case <-r.ended:
	case <-time.After(15 * time.Second):
		t.Fatalf("no end event; got %+v", r.snapshot())
	}
	ev := r.snapshot()
	return ev[len(ev)-1]
}

const startPost = `(url) => { fetch(url, {method: 'POST', body: '{}'}).then(r => r.text()).then(t => { window.got = t; }); }`

func TestCaptureDeliversTheStreamAsBytes(t *testing.T) {
	want := bytes.Join(streamParts, nil)
	cases := []struct {
		name string
		path string
		want []byte
	}{
		{"a streamed response arrives whole, multibyte characters split across chunks intact", "/stream", want},
		{"a redirected request keeps its id and its body is captured", "/stream-redirect", want},
		{"an empty response ends cleanly with no bytes", "/stream-empty", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newTab(t, "/blank.html")
			ctx := testCtx(t, 20*time.Second)
			rec := newRecorder()
			c, err := p.Capture(ctx, Match{URL: regexp.MustCompile(`/stream`), Method: "POST"}, rec.sink)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Stop()
			if _, err := p.Eval(ctx, startPost, fixture.URL+tc.path); err != nil {
				t.Fatal(err)
			}
			end := rec.waitEnd(t)
			if end.Err != nil {
				t.Fatalf("end: %v", end.Err)
			}
			ev := rec.snapshot()
			if ev[0].Kind != StreamStart || ev[0].Status != 200 || ev[0].Headers["content-type"] != "text/event-stream" {
				t.Fatalf("first event %+v", ev[0])
			}
			if got := rec.body(); !bytes.Equal(got, tc.want) {
				t.Fatalf("captured %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCaptureDeliversChunksWhileTheResponseIsStillOpen(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 20*time.Second)
	rec := newRecorder()
	c, err := p.Capture(ctx, Match{URL: regexp.MustCompile(`/stream\?`)}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	name := t.Name()
	if _, err := p.Eval(ctx, startPost, fixture.URL+"/stream?gate="+name); err != nil {
		t.Fatal(err)
	}
	// The server holds its last part back: the earlier ones must already
	// be here, which only a streamed capture can do.
	early := bytes.Join(streamParts[:len(streamParts)-1], nil)
	deadline := time.Now().Add(10 * time.Second)
	for !bytes.Equal(rec.body(), early) {
		if time.Now().After(deadline) {
			t.Fatalf("before the end only %q arrived, want %q", rec.body(), early)
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(gate(name))
	if end := rec.waitEnd(t); end.Err != nil {
		t.Fatalf("end: %v", end.Err)
	}
	if got := rec.body(); !bytes.Equal(got, bytes.Join(streamParts, nil)) {
		t.Fatalf("captured %q", got)
	}
}

func TestCaptureIgnoresRequestsThatDoNotMatch(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 20*time.Second)
	rec := newRecorder()
	c, err := p.Capture(ctx, Match{URL: regexp.MustCompile(`/stream$`), Method: "GET"}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(ctx, `async (url) => { await (await fetch(url, {method: 'POST'})).text(); }`, fixture.URL+"/stream"); err != nil {
		t.Fatal(err)
	}
	c.Stop()
	if ev := rec.snapshot(); len(ev) != 0 {
		t.Fatalf("a POST was captured by a GET match: %+v", ev)
	}
}

func TestCaptureEndsOpenStreamsWhenTheTabCrashes(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 20*time.Second)
	rec := newRecorder()
	c, err := p.Capture(ctx, Match{URL: regexp.MustCompile(`/stream\?`)}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	name := t.Name()
	defer close(gate(name))
	if _, err := p.Eval(ctx, startPost, fixture.URL+"/stream?gate="+name); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(rec.body()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	crash(t, p)
	if end := rec.waitEnd(t); !errs.Has(end.Err, errs.TargetCrashed) {
		t.Fatalf("end: %v, want target_crashed", end.Err)
	}
}

// Two captures of one page see the same response (a run's retry while the
// refused turn's capture is still open): each gets every byte once, even
// when one of them asks Chromium to stream the response later than the
// other, after bytes already came with dataReceived.
func TestTwoCapturesOfOnePageEachGetTheBodyOnce(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 20*time.Second)
	first, late := newRecorder(), newRecorder()
	m := Match{URL: regexp.MustCompile(`/stream\?`), Method: "POST"}
	c1, err := p.Capture(ctx, m, first.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Stop()
	c2, err := p.Capture(ctx, m, func(e StreamEvent) {
		if e.Kind == StreamStart {
			time.Sleep(300 * time.Millisecond) // its streamResourceContent comes late
		}
		late.sink(e)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Stop()
	name := t.Name() + strconv.FormatInt(time.Now().UnixNano(), 10)
	if _, err := p.Eval(ctx, startPost, fixture.URL+"/stream?gate="+name); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	close(gate(name))
	want := bytes.Join(streamParts, nil)
	for who, rec := range map[string]*recorder{"first": first, "late": late} {
		if end := rec.waitEnd(t); end.Err != nil {
			t.Fatalf("%s: end: %v", who, end.Err)
		}
		if got := rec.body(); !bytes.Equal(got, want) {
			t.Fatalf("%s capture got %q, want %q", who, got, want)
		}
	}
}

// openSocket opens a WebSocket to the fixture's /ws as window[name] and
// waits until it is open.
const openSocket = `(url, name) => new Promise((ok, fail) => {
	const ws = new WebSocket(url); ws.binaryType = 'arraybuffer';
	ws.onopen = () => { window[name] = ws; ok(true); }; ws.onerror = () => fail(new Error('socket failed'));
})`

func TestCaptureDeliversTheMessagesTheTabsSocketsReceive(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 20*time.Second)
	wsURL := "ws" + strings.TrimPrefix(fixture.URL, "http") + "/ws"
	// A site opens its socket with the page, long before a run captures.
	if _, err := p.Eval(ctx, openSocket, wsURL, "early"); err != nil {
		t.Fatal(err)
	}
	got := make(chan StreamEvent, 16)
	c, err := p.Capture(ctx, Match{URL: regexp.MustCompile(`/stream`), Sockets: true}, func(e StreamEvent) {
		if e.Kind == SocketMessage {
			got <- e
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	next := func() StreamEvent {
		t.Helper()
		select {
		case e := <-got:
			return e
		case <-ctx.Done():
			t.Fatal("no socket message arrived")
			return StreamEvent{}
		}
	}
	if _, err := p.Eval(ctx, `() => window.early.send('say:h\u00e9llo \u{1F6A2}')`); err != nil {
		t.Fatal(err)
	}
	text, bin := next(), next()
	if string(text.Data) != "h\u00e9llo \U0001F6A2" || text.URL != "" {
		t.Errorf("text message of the socket opened before the capture = %q (url %q)", text.Data, text.URL)
	}
	if want := reverse([]byte("h\u00e9llo \U0001F6A2")); !bytes.Equal(bin.Data, want) || bin.RequestID != text.RequestID {
		t.Errorf("binary message = %x on %q, want %x on %q", bin.Data, bin.RequestID, want, text.RequestID)
	}
	// A socket opened while the capture runs is named by its address.
	if _, err := p.Eval(ctx, openSocket, wsURL, "late"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(ctx, `() => window.late.send('say:late')`); err != nil {
		t.Fatal(err)
	}
	if e := next(); string(e.Data) != "late" || e.URL != wsURL || e.RequestID == text.RequestID {
		t.Errorf("message of the late socket = %q from %q (%s)", e.Data, e.URL, e.RequestID)
	}
	next()
}

func TestCaptureWithoutSocketsDeliversNoSocketMessage(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 20*time.Second)
	rec := newRecorder()
	c, err := p.Capture(ctx, Match{URL: regexp.MustCompile(`/stream`), Method: "POST"}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	if _, err := p.Eval(ctx, openSocket, "ws"+strings.TrimPrefix(fixture.URL, "http")+"/ws", "s"); err != nil {
		t.Fatal(err)
	}
	// The socket's answer and then a captured stream: the stream's end
	// proves the capture went past the socket's messages.
	if _, err := p.Eval(ctx, `() => new Promise(ok => { window.s.onmessage = (e) => { if (e.data instanceof ArrayBuffer) ok(true); }; window.s.send('say:x'); })`); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(ctx, startPost, fixture.URL+"/stream"); err != nil {
		t.Fatal(err)
	}
	rec.waitEnd(t)
	for _, e := range rec.snapshot() {
		if e.Kind == SocketMessage {
			t.Errorf("a capture without Sockets delivered %q", e.Data)
		}
	}
}

func reverse(b []byte) []byte {
	out := append([]byte(nil), b...)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
