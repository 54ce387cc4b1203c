package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The event stream (GET /v1/events, WebSocket) carries JSON text messages.
// The hub sends "hello" once, "heartbeat" every heartbeat interval, "event"
// for each event the client may see and "reply" for each request. A client
// may send requests: {"id", "method", "path", "body"}, handled like the HTTP
// request of that method and path (same rate limit, same dedup by id), except
// that /v1/events, /v1/pair and artifact downloads are HTTP only.

// Message types of the event stream.
const (
	WSHello     = "hello"
	WSHeartbeat = "heartbeat"
	WSEvent     = "event"
	WSReply     = "reply"
)

// WSRequest is a request a client sends over the event stream. ID is
// required and deduplicated like MessageIDHeader.
type WSRequest struct {
	ID     string          `json:"id"`
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// WSMessage is a message the hub sends over the event stream.
type WSMessage struct {
	Type string `json:"type"`
	// reply
	ID           string          `json:"id,omitempty"`
	Status       int             `json:"status,omitempty"`
	Body         json.RawMessage `json:"body,omitempty"`
	RetryAfterMs int64           `json:"retryAfterMs,omitempty"`
	// event
	Event *Event `json:"event,omitempty"`
	// hello and heartbeat
	Time        time.Time `json:"time,omitzero"`
	ClientID    string    `json:"clientId,omitempty"`
	HeartbeatMs int64     `json:"heartbeatMs,omitempty"`
}

const wsWriteTimeout = 10 * time.Second

func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request, c Caller) {
	// checkRequest already refused foreign origins; coder/websocket's own
	// Origin check stays on (no InsecureSkipVerify) with the same allowlist.
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.guard.patterns})
	if err != nil {
		s.log.Warn("websocket upgrade refused", "client", c.ClientID, "err", err)
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(defaultMaxBody + 64<<10)
	if !s.addConn(c.ClientID, conn) {
		conn.Close(websocket.StatusGoingAway, "ferry hub is shutting down")
		return
	}
	defer s.removeConn(c.ClientID, conn)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	sub := s.bus.subscribe(defaultSubscriberBuf, eventFilter(c))
	defer s.bus.unsubscribe(sub)

	write := func(m WSMessage) error {
		data, err := json.Marshal(m)
		if err != nil {
			return err
		}
		wctx, done := context.WithTimeout(ctx, wsWriteTimeout)
		defer done()
		return conn.Write(wctx, websocket.MessageText, data)
	}
	if err := write(WSMessage{Type: WSHello, ClientID: c.ClientID, HeartbeatMs: s.opt.heartbeat.Milliseconds(), Time: s.opt.now().UTC()}); err != nil {
		return
	}
	host := r.Host
	go func() {
		defer cancel()
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			if err := write(s.wsDispatch(ctx, c, host, data)); err != nil {
				return
			}
		}
	}()
	tick := time.NewTicker(s.opt.heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-sub.ch:
			if !ok {
				conn.Close(websocket.StatusTryAgainLater, "event backlog overflowed; reconnect and read the job state")
				return
			}
			if err := write(WSMessage{Type: WSEvent, Event: &ev}); err != nil {
				return
			}
		case <-tick.C:
			if err := write(WSMessage{Type: WSHeartbeat, Time: s.opt.now().UTC()}); err != nil {
				return
			}
		}
	}
}

// wsDispatch runs one request from the event stream and returns its reply.
func (s *Server) wsDispatch(ctx context.Context, c Caller, host string, data []byte) WSMessage {
	var req WSRequest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return wsError("", http.StatusBadRequest, errs.New(errs.BadInput, "a WebSocket request must be {\"id\",\"method\",\"path\",\"body\"}: %v", err))
	}
	if !validMessageID(req.ID) {
		return wsError("", http.StatusBadRequest, errs.New(errs.BadInput, "a WebSocket request needs an id of 1 to %d printable ASCII characters", maxMessageIDLen))
	}
	if e := s.recheck(ctx, c); e != nil {
		return wsError(req.ID, http.StatusUnauthorized, e)
	}
	method := strings.ToUpper(req.Method)
	switch method {
	case http.MethodGet, http.MethodPost, http.MethodDelete:
	default:
		return wsError(req.ID, http.StatusMethodNotAllowed, errs.New(errs.BadInput, "method %q is not one of GET, POST, DELETE", clip(req.Method, 20)))
	}
	u, err := url.ParseRequestURI(req.Path)
	if err != nil || !strings.HasPrefix(u.Path, "/v1/") || u.Host != "" {
		return wsError(req.ID, http.StatusBadRequest, errs.New(errs.BadInput, "path %q is not an API path under /v1/", clip(req.Path, 120)))
	}
	if u.Path == "/v1/events" || u.Path == "/v1/pair" || strings.Contains(u.Path, "/artifacts/") {
		return wsError(req.ID, http.StatusBadRequest, errs.New(errs.BadInput, "%s is served over HTTP only", clip(u.Path, 120)))
	}
	if e := checkQuery(u); e != nil {
		return wsError(req.ID, StatusFor(e.Code), e)
	}
	hr, err := http.NewRequestWithContext(withCaller(ctx, c), method, "http://"+host+u.RequestURI(), bytes.NewReader(req.Body))
	if err != nil {
		return wsError(req.ID, http.StatusBadRequest, errs.New(errs.BadInput, "build request for %s: %v", clip(req.Path, 120), err))
	}
	hr.Header.Set(MessageIDHeader, req.ID)
	if len(req.Body) > 0 {
		hr.Header.Set("Content-Type", "application/json")
	}
	rec := &recorder{header: http.Header{}}
	s.serveAuthed(rec, hr)
	reply := WSMessage{Type: WSReply, ID: req.ID, Status: rec.statusCode()}
	if body := bytes.TrimSpace(rec.body.Bytes()); len(body) > 0 && json.Valid(body) {
		reply.Body = body
	}
	if ra := rec.header.Get("Retry-After"); ra != "" {
		if secs, err := strconv.Atoi(ra); err == nil {
			reply.RetryAfterMs = int64(secs) * 1000
		}
	}
	return reply
}

func wsError(id string, status int, e *errs.Envelope) WSMessage {
	return WSMessage{Type: WSReply, ID: id, Status: status, Body: e.JSON()}
}

// recorder is the ResponseWriter of a request that arrived over the event
// stream: the response goes back as a reply message.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(p)
}

func (r *recorder) statusCode() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}
