package hub_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/service"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// testHub is a started hub with its fake backend, clock and owner token.
type testHub struct {
	srv     *hub.Server
	backend *fakeBackend
	clock   *fakeClock
	file    hubfile.File
	path    string
	http    *http.Client
}

func startHub(t *testing.T, opts ...hub.Option) *testHub {
	t.Helper()
	th := &testHub{clock: newFakeClock()}
	th.backend = newFakeBackend(t, th.clock.Now)
	th.path = filepath.Join(t.TempDir(), "hub.json")
	all := append([]hub.Option{hub.WithHubFile(th.path), hub.WithClock(th.clock.Now)}, opts...)
	srv, err := hub.New(th.backend, all...)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	th.srv = srv
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Close(ctx)
	})
	f, err := hubfile.Read(th.path)
	if err != nil {
		t.Fatal(err)
	}
	th.file = f
	th.http = &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: 10 * time.Second}
	t.Cleanup(th.http.CloseIdleConnections)
	return th
}

func (th *testHub) url(path string) string {
	return "http://127.0.0.1:" + strconv.Itoa(th.file.Port) + path
}

// req describes one raw request; the zero Token means "no Authorization".
type req struct {
	method, path string
	token        string
	host         string
	header       map[string]string
	body         any
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) envelope(t *testing.T) errs.Envelope {
	t.Helper()
	var e errs.Envelope
	if err := json.Unmarshal(r.body, &e); err != nil || e.Code == "" {
		t.Fatalf("body is not an errs envelope (status %d): %s", r.status, r.body)
	}
	return e
}

func (r resp) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (th *testHub) do(t *testing.T, q req) resp {
	t.Helper()
	var body io.Reader
	if q.body != nil {
		b, err := json.Marshal(q.body)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	method := q.method
	if method == "" {
		method = http.MethodGet
	}
	r, err := http.NewRequest(method, th.url(q.path), body)
	if err != nil {
		t.Fatal(err)
	}
	if q.host != "" {
		r.Host = q.host
	}
	if q.token != "" {
		r.Header.Set("Authorization", "Bearer "+q.token)
	}
	stateThisBuild(r.Header)
	for k, v := range q.header {
		r.Header.Set(k, v)
	}
	res, err := th.http.Do(r)
	if err != nil {
		t.Fatalf("%s %s: %v", method, q.path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: data}
}

// revoke revokes client id over the owner's route.
func (th *testHub) revoke(t *testing.T, id string) {
	t.Helper()
	if r := th.do(t, req{method: "DELETE", path: "/v1/clients/" + id, token: th.file.Token}); r.status != 200 {
		t.Fatalf("revoke %s: %d %s", id, r.status, r.body)
	}
}

// pairClient registers a client directly (what a redeemed code does) and
// returns its id and token.
func (th *testHub) pairClient(t *testing.T, name string) (string, string) {
	t.Helper()
	return th.backend.register(t, name)
}

func (th *testHub) dialWS(t *testing.T, token string, header map[string]string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	stateThisBuild(h)
	for k, v := range header {
		h.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(th.file.Port)+"/v1/events", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{Proxy: nil}}, HTTPHeader: h,
	})
	if c != nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, res, err
}

func readWS(t *testing.T, c *websocket.Conn, timeout time.Duration) hub.WSMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read websocket: %v", err)
	}
	var m hub.WSMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// readUntil reads messages until one satisfies ok.
func readUntil(t *testing.T, c *websocket.Conn, timeout time.Duration, ok func(hub.WSMessage) bool) hub.WSMessage {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			t.Fatal("timed out waiting for a websocket message")
		}
		if m := readWS(t, c, left); ok(m) {
			return m
		}
	}
}

func writeWS(t *testing.T, c *websocket.Conn, m hub.WSRequest) {
	t.Helper()
	data, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, data); err != nil {
		t.Fatal(err)
	}
}

// stateThisBuild adds the version handshake of this build, as every Ferry
// client sends it (a test may override it with its own headers).
func stateThisBuild(h http.Header) {
	h.Set(service.HeaderVersion, service.This().Version)
	h.Set(service.HeaderWire, strconv.Itoa(service.WireRevision))
}
