package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

// QueueSize is the default bound of a Follower's outgoing queue.
const QueueSize = 200

// EndpointSource says where to connect; a Follower asks again before every
// reconnect, so an owner that restarted on another port is found.
type EndpointSource func(ctx context.Context) (Endpoint, error)

// FromHubFile finds the owner through the hub file at path (Discover).
func FromHubFile(path string) EndpointSource {
	return func(ctx context.Context) (Endpoint, error) { return Discover(ctx, path) }
}

// Static always connects to ep (a paired client).
func Static(ep Endpoint) EndpointSource {
	return func(context.Context) (Endpoint, error) { return ep, nil }
}

// Reply is the hub's answer to a request sent through a Follower.
type Reply struct {
	Status int
	Body   json.RawMessage
}

// Err returns the reply's errs envelope when Status is an error, else nil.
func (r Reply) Err() error {
	if r.Status < 400 {
		return nil
	}
	var env errs.Envelope
	if err := json.Unmarshal(r.Body, &env); err == nil && env.Code != "" {
		return &env
	}
	return errs.New(errs.Internal, "the hub answered %d without an error envelope", r.Status)
}

type pending struct {
	req  hub.WSRequest
	done chan Reply
}

// Follower keeps an event stream to the hub open: it reconnects with
// backoff (1 s to 60 s, ±30 % jitter) whenever the stream ends, and sends
// queued requests in order, one at a time, each kept until the hub replied
// (a request cut off by a disconnect is sent again with the same id; the
// hub's dedup keeps it from running twice within 60 s).
type Follower struct {
	source  EndpointSource
	onEvent func(hub.Event)
	backoff Backoff
	clock   Clock
	rand    func() float64
	log     *slog.Logger
	limit   int
	newID   func() string
	// staleAfter × the hub's heartbeat without any message means the
	// stream is dead even if TCP has not noticed.
	staleAfter float64

	mu      sync.Mutex
	queue   []*pending
	wake    chan struct{}
	state   State
	waits   []time.Duration
	onState func(State)
}

// State is where a Follower is.
type State string

// The states.
const (
	StateConnecting State = "connecting"
	StateConnected  State = "connected"
	StateWaiting    State = "waiting" // backing off before a reconnect
	StateStopped    State = "stopped"
)

// FollowerOption configures a Follower.
type FollowerOption func(*Follower)

// WithBackoff replaces the reconnect schedule.
func WithBackoff(b Backoff) FollowerOption { return func(f *Follower) { f.backoff = b } }

// WithClock replaces the clock used for backoff and rate-limit waits.
func WithClock(c Clock) FollowerOption { return func(f *Follower) { f.clock = c } }

// WithRand replaces the uniform [0,1) source of the jitter.
func WithRand(r func() float64) FollowerOption { return func(f *Follower) { f.rand = r } }

// WithQueueSize bounds the outgoing queue (default QueueSize).
func WithQueueSize(n int) FollowerOption {
	return func(f *Follower) {
		if n > 0 {
			f.limit = n
		}
	}
}

// WithStateHook is called on every state change (from the Run goroutine).
func WithStateHook(fn func(State)) FollowerOption { return func(f *Follower) { f.onState = fn } }

// WithFollowerLogger sends the follower's log lines to l.
func WithFollowerLogger(l *slog.Logger) FollowerOption { return func(f *Follower) { f.log = l } }

// NewFollower returns a follower that delivers events to onEvent (called
// from one goroutine, in order). Start it with Run.
func NewFollower(source EndpointSource, onEvent func(hub.Event), opts ...FollowerOption) *Follower {
	f := &Follower{
		source: source, onEvent: onEvent, backoff: DefaultBackoff, clock: realClock{},
		rand: defaultRand, log: slog.New(slog.DiscardHandler), limit: QueueSize,
		newID: func() string { return newMessageID() }, staleAfter: 2.5,
		wake: make(chan struct{}, 1), state: StateStopped,
	}
	for _, o := range opts {
		o(f)
	}
	if f.onEvent == nil {
		f.onEvent = func(hub.Event) {}
	}
	return f
}

// Send queues a request (method and API path, body marshalled as JSON) and
// returns at once. The reply arrives on the returned channel once the hub
// answered, whenever that is. Errors: errs.HubQueueFull when the queue holds
// its limit of requests (Send never blocks), errs.BadInput for a body that
// does not encode.
func (f *Follower) Send(method, path string, body any) (<-chan Reply, error) {
	var raw json.RawMessage
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, errs.Wrap(err, errs.BadInput, "encode request for %s: %v", path, err)
		}
		raw = b
	}
	p := &pending{req: hub.WSRequest{ID: f.newID(), Method: method, Path: path, Body: raw}, done: make(chan Reply, 1)}
	f.mu.Lock()
	if len(f.queue) >= f.limit {
		n := len(f.queue)
		f.mu.Unlock()
		return nil, errs.New(errs.HubQueueFull, "%d requests already wait for the hub; this one was not queued", n).
			WithEvidence("queued", fmt.Sprint(n))
	}
	f.queue = append(f.queue, p)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
	return p.done, nil
}

// Queued is the number of requests not yet answered.
func (f *Follower) Queued() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queue)
}

// Waits returns the backoff waits taken so far (for diagnostics and tests).
func (f *Follower) Waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

func (f *Follower) setState(s State) {
	f.mu.Lock()
	f.state = s
	hook := f.onState
	f.mu.Unlock()
	if hook != nil {
		hook(s)
	}
}

// errPermanent marks failures that reconnecting cannot fix.
type errPermanent struct{ err error }

func (e errPermanent) Error() string { return e.err.Error() }
func (e errPermanent) Unwrap() error { return e.err }

// Run connects and keeps reconnecting until ctx ends (returning ctx's
// error) or the hub refuses the client for good: a revoked or unknown
// token (errs.HubUnauthorized) or a refused Host/Origin (errs.HubForbidden).
func (f *Follower) Run(ctx context.Context) error {
	defer f.setState(StateStopped)
	attempt := 0
	for {
		f.setState(StateConnecting)
		connected, err := f.session(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var perm errPermanent
		if errors.As(err, &perm) {
			return perm.err
		}
		if connected {
			attempt = 0
		}
		d := f.backoff.Delay(attempt, f.rand())
		attempt++
		f.log.Info("hub stream ended; reconnecting", "err", err, "wait", d)
		f.mu.Lock()
		f.waits = append(f.waits, d)
		f.mu.Unlock()
		f.setState(StateWaiting)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-f.clock.After(d):
		}
	}
}

// session runs one connection; connected reports whether the hub said hello.
func (f *Follower) session(ctx context.Context) (connected bool, err error) {
	ep, err := f.source(ctx)
	if err != nil {
		return false, err
	}
	h := http.Header{}
	ep.authorize(h)
	statePeer(h, service.This())
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, resp, err := websocket.Dial(dctx, "ws://"+ep.Host()+"/v1/events", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: newTransport()},
		HTTPHeader: h,
	})
	cancel()
	if err != nil {
		if resp != nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
			return false, errPermanent{handshakeError(resp)}
		}
		if resp != nil {
			if verr := checkOwner(resp, "/v1/events", service.This()); verr != nil {
				return false, errPermanent{verr}
			}
		}
		return false, fmt.Errorf("dial hub stream: %w", err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(4 << 20)

	sctx, stop := context.WithCancel(ctx)
	defer stop()
	hello, err := readMessage(sctx, conn, 10*time.Second)
	if err != nil || hello.Type != hub.WSHello {
		return false, fmt.Errorf("read hub hello: %w", errors.Join(err, errors.New("no hello")))
	}
	f.setState(StateConnected)
	heartbeat := time.Duration(hello.HeartbeatMs) * time.Millisecond
	if heartbeat <= 0 {
		heartbeat = hub.DefaultHeartbeat
	}
	stale := time.Duration(float64(heartbeat) * f.staleAfter)

	replies := make(chan hub.WSMessage, 16)
	readErr := make(chan error, 1)
	go func() {
		for {
			m, err := readMessage(sctx, conn, stale)
			if err != nil {
				readErr <- err
				stop()
				return
			}
			switch m.Type {
			case hub.WSEvent:
				if m.Event != nil {
					f.onEvent(*m.Event)
				}
			case hub.WSReply:
				// Stop-and-wait: at most one reply is awaited, so a full
				// buffer only ever holds strays, which may be dropped.
				select {
				case replies <- m:
				default:
				}
			}
		}
	}()
	werr := f.writeLoop(sctx, conn, replies)
	stop()
	var rerr error
	select {
	case rerr = <-readErr:
	default:
	}
	if code := websocket.CloseStatus(rerr); code == websocket.StatusPolicyViolation {
		return true, errPermanent{errs.New(errs.HubUnauthorized, "the hub closed the stream: the client was revoked")}
	}
	return true, errors.Join(werr, rerr)
}

// writeLoop sends the queue head, waits for its reply, and repeats. A 429
// reply keeps the request at the head and waits as told.
func (f *Follower) writeLoop(ctx context.Context, conn *websocket.Conn, replies <-chan hub.WSMessage) error {
	for {
		f.mu.Lock()
		var head *pending
		if len(f.queue) > 0 {
			head = f.queue[0]
		}
		f.mu.Unlock()
		if head == nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-f.wake:
				continue
			}
		}
		data, _ := json.Marshal(head.req)
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := conn.Write(wctx, websocket.MessageText, data)
		cancel()
		if err != nil {
			return fmt.Errorf("send queued request: %w", err)
		}
		var reply hub.WSMessage
		for reply.ID != head.req.ID {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case reply = <-replies:
			}
		}
		if reply.Status == http.StatusTooManyRequests {
			wait := time.Duration(reply.RetryAfterMs) * time.Millisecond
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-f.clock.After(max(wait, time.Second)):
			}
			continue
		}
		f.mu.Lock()
		f.queue = f.queue[1:]
		f.mu.Unlock()
		head.done <- Reply{Status: reply.Status, Body: reply.Body}
	}
}

func readMessage(ctx context.Context, conn *websocket.Conn, timeout time.Duration) (hub.WSMessage, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, data, err := conn.Read(rctx)
	if err != nil {
		return hub.WSMessage{}, err
	}
	var m hub.WSMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return hub.WSMessage{}, fmt.Errorf("decode hub message: %w", err)
	}
	return m, nil
}

// handshakeError decodes the envelope of a refused WebSocket handshake.
func handshakeError(resp *http.Response) error {
	if resp.Body != nil {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		var env errs.Envelope
		if json.Unmarshal(data, &env) == nil && env.Code != "" {
			if _, ok := errs.Lookup(env.Code); ok {
				return &env
			}
		}
	}
	if resp.StatusCode == http.StatusForbidden {
		return errs.New(errs.HubForbidden, "the hub refused the event stream (%s)", resp.Status)
	}
	return errs.New(errs.HubUnauthorized, "the hub refused the event stream (%s)", resp.Status)
}
