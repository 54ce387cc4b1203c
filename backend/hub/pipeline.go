package hub

import (
	"bytes"
	"context"
	"crypto/sha256"

	"io"
	"net"
	"net/http"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Caller is the authenticated client of a request.
type Caller struct {
	ClientID string
	Name     string
	Owner    bool
}

type callerKey struct{}

func withCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

// ServeHTTP is the gateway's front door. Order matters: the Host and Origin
// checks come before anything else (a rebound or cross-site request learns
// nothing), a token in the URL is refused before authentication, and rate
// limiting, routing and deduplication only see authenticated callers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setCommonHeaders(w.Header())
	if s.guard == nil {
		writeEnvelope(w, http.StatusServiceUnavailable, errs.New(errs.HubNotRunning, "the hub is not started"))
		return
	}
	if e := s.guard.checkRequest(r); e != nil {
		s.log.Warn("refused request", "reason", "host or origin", "path", r.URL.Path, "remote", r.RemoteAddr)
		writeEnvelope(w, http.StatusForbidden, e)
		return
	}
	if e := checkQuery(r.URL); e != nil {
		s.log.Warn("refused request", "reason", "token in url", "path", r.URL.Path, "remote", r.RemoteAddr)
		writeEnvelope(w, StatusFor(e.Code), e)
		return
	}
	if r.URL.Path == "/v1/pair" {
		if e := checkWire(r); e != nil {
			writeEnvelope(w, StatusFor(e.Code), e)
			return
		}
		s.handlePair(w, r)
		return
	}
	c, e := s.authenticate(r)
	if e == nil {
		c, e = s.actAs(r, c)
	}
	if e == nil {
		e = checkWire(r)
	}
	if e != nil {
		reason := "auth"
		if e.Code == errs.VersionMismatch {
			reason = "version"
		}
		s.log.Warn("refused request", "reason", reason, "code", e.Code, "path", r.URL.Path, "remote", r.RemoteAddr)
		writeEnvelope(w, StatusFor(e.Code), e)
		return
	}
	s.serveAuthed(w, r.WithContext(withCaller(r.Context(), c)))
}

// serveAuthed runs an authenticated message (an HTTP request or a WebSocket
// command) through the rate limit and the routes.
func (s *Server) serveAuthed(w http.ResponseWriter, r *http.Request) {
	c, _ := callerFrom(r.Context())
	if ok, retry := s.limiter.allow(c.ClientID); !ok {
		writeRateLimited(w, retry, nil)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// authenticate checks the bearer token of r.
func (s *Server) authenticate(r *http.Request) (Caller, *errs.Envelope) {
	values := r.Header.Values("Authorization")
	switch len(values) {
	case 0:
		return Caller{}, errs.New(errs.HubUnauthorized, "the request has no Authorization header")
	case 1:
	default:
		return Caller{}, errs.New(errs.HubUnauthorized, "the request has %d Authorization headers; send one", len(values))
	}
	scheme, tok, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return Caller{}, errs.New(errs.HubUnauthorized, "the Authorization header is not a bearer token")
	}
	return s.authToken(r.Context(), strings.TrimSpace(tok))
}

// authToken checks a token. Digests are compared in constant time; the
// client id part only selects which digest to compare with.
func (s *Server) authToken(ctx context.Context, tok string) (Caller, *errs.Envelope) {
	id, problem := service.TokenShape(tok)
	if problem != "" {
		return Caller{}, errs.New(errs.HubUnauthorized, "%s", problem)
	}
	if id == OwnerClientID {
		if !service.DigestOf(tok).Equal(s.ownerDigest) {
			return Caller{}, errs.New(errs.HubUnauthorized, "the token is not valid for this hub").
				WithHint("read the hub file again (the owner makes a new token at each start), or pair the client again")
		}
		return Caller{ClientID: OwnerClientID, Name: "owner", Owner: true}, nil
	}
	info, err := s.svc.Authenticate(ctx, tok)
	if err != nil {
		return Caller{}, s.authError(id, err)
	}
	return Caller{ClientID: info.ID, Name: info.Name}, nil
}

// authError is the envelope of a failed authentication: the service's
// refusal as it is, anything else an internal error that is logged.
func (s *Server) authError(id string, err error) *errs.Envelope {
	if errs.Has(err, errs.HubUnauthorized) {
		return errs.From(err)
	}
	s.log.Error("read client", "client", clip(id, 80), "err", err)
	return errs.Wrap(err, errs.Internal, "read client %s: %v", clip(id, 80), err)
}

// recheck confirms, for each WebSocket message, that the connection's client
// was not revoked since it connected.
func (s *Server) recheck(ctx context.Context, c Caller) *errs.Envelope {
	if c.Owner {
		return nil
	}
	if _, err := s.svc.ActAs(ctx, c.ClientID); err != nil {
		return errs.New(errs.HubUnauthorized, "client %q was revoked", c.ClientID)
	}
	return nil
}

// withDedup runs a state-changing handler at most once per message id and
// client within the dedup window; a repeat gets the first response.
func (s *Server) withDedup(w http.ResponseWriter, r *http.Request, c Caller, fn func(http.ResponseWriter, *http.Request, Caller)) {
	id := r.Header.Get(MessageIDHeader)
	if id == "" {
		fn(w, r, c)
		return
	}
	if !validMessageID(id) {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "the %s header must be 1 to %d printable ASCII characters", MessageIDHeader, maxMessageIDLen))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, defaultMaxBody))
	if err != nil {
		writeEnvelope(w, http.StatusRequestEntityTooLarge, errs.New(errs.BadInput, "read request body: %v", err).WithHint("keep request bodies under 1 MiB"))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h := sha256.New()
	io.WriteString(h, r.Method+"\n"+r.URL.Path+"?"+r.URL.RawQuery+"\n")
	h.Write(body)
	var fp service.Digest
	copy(fp[:], h.Sum(nil))

	e, first, err := s.dedup.begin(dedupKey{client: c.ClientID, id: id}, fp)
	if err != nil {
		writeEnvelope(w, http.StatusConflict, errs.From(err))
		return
	}
	if !first {
		resp, err := s.dedup.wait(r.Context(), e)
		if err != nil {
			writeErr(w, err)
			return
		}
		for k, v := range resp.header {
			w.Header()[k] = v
		}
		w.Header().Set(ReplayHeader, "true")
		w.WriteHeader(resp.status)
		w.Write(resp.body)
		return
	}
	tee := &teeWriter{ResponseWriter: w, status: http.StatusOK}
	defer func() { s.dedup.finish(e, tee.recorded()) }()
	fn(tee, r, c)
}

// teeWriter passes a response through and keeps a copy for the dedup cache.
type teeWriter struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	buf         bytes.Buffer
}

func (t *teeWriter) WriteHeader(code int) {
	if !t.wroteHeader {
		t.status, t.wroteHeader = code, true
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(p []byte) (int, error) {
	t.wroteHeader = true
	if t.buf.Len() < defaultMaxBody {
		t.buf.Write(p)
	}
	return t.ResponseWriter.Write(p)
}

func (t *teeWriter) recorded() recorded {
	h := http.Header{}
	for _, k := range []string{"Content-Type", "Retry-After", "Location"} {
		if v := t.Header().Get(k); v != "" {
			h.Set(k, v)
		}
	}
	return recorded{status: t.status, header: h, body: bytes.Clone(t.buf.Bytes())}
}

// remoteIP is the address part of r.RemoteAddr, the key of the pairing limits.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
