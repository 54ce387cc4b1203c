package sim

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// SiteForHost returns the site id answering for host (port ignored), or "".
func SiteForHost(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	regMu.RLock()
	defer regMu.RUnlock()
	for id, st := range registry {
		if st.Host == host {
			return id
		}
	}
	return extraHosts[host]
}

// Pace is the streaming speed: Chunk runes of answer text per frame, one frame
// every Interval.
type Pace struct {
	Chunk    int
	Interval time.Duration
}

// Option configures a Server.
type Option func(*Server)

// WithPace sets the default streaming speed (default 6 runes every 30 ms,
// about the speed of a fast real model).
func WithPace(chunkRunes int, interval time.Duration) Option {
	return func(s *Server) {
		if chunkRunes > 0 {
			s.pace.Chunk = chunkRunes
		}
		if interval >= 0 {
			s.pace.Interval = interval
		}
	}
}

// WithScenario makes scenario the default for site ("" = every site) until
// changed through SetScenario or the admin endpoint.
func WithScenario(site string, sc Scenario) Option {
	return func(s *Server) { s.setSticky(site, sc) }
}

// WithLogf sends one line per request to logf (nil = silent).
func WithLogf(logf func(format string, args ...any)) Option {
	return func(s *Server) { s.logf = logf }
}

// WithRateLimitLock sets how long the rate-limit lock lasts after the
// rate_limit scenario fired (default 5 s; the real sites lock for minutes).
func WithRateLimitLock(d time.Duration) Option {
	return func(s *Server) { s.lockFor = d }
}

// WithEstuaryTTL sets how long a minted estuary URL stays valid (default 10 min).
func WithEstuaryTTL(d time.Duration) Option { return func(s *Server) { s.estuaryFor = d } }

// DownloadTTL is how long a download URL a site mints stays valid
// (WithEstuaryTTL, default 10 min).
func (s *Server) DownloadTTL() time.Duration {
	if s.estuaryFor > 0 {
		return s.estuaryFor
	}
	return 10 * time.Minute
}

// RateLimitLock is how long the rate-limit lock lasts after a rate_limit
// scenario fired without its own lock parameter (WithRateLimitLock).
func (s *Server) RateLimitLock() time.Duration { return s.lockFor }

// OnReset makes fn part of Reset: a site's Routes registers how to clear
// the state it keeps for the server (conversations, files).
func (s *Server) OnReset(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resets = append(s.resets, fn)
}

// OnClose makes fn part of Close: a site's hijacked connections (its
// WebSockets) are not the HTTP server's to end.
func (s *Server) OnClose(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closers = append(s.closers, fn)
}

// Server is the simulator: one HTTPS listener answering for every site by its
// Host header. Build it with New; it is safe for concurrent use.
type Server struct {
	logf       func(string, ...any)
	secret     []byte
	lockFor    time.Duration
	estuaryFor time.Duration

	mu          sync.Mutex
	pace        Pace
	initialPace Pace
	sticky      map[string]Scenario // site ("" = all) -> scenario for the next turns
	locked      map[string]time.Time
	lockNext    map[string]time.Duration // LockAtNextSend: a lock that starts with the next send
	ledger      ledger
	resets      []func() // the sites' OnReset hooks
	closers     []func() // the sites' OnClose hooks
	script      transcript
	stops       stopControl
	held        holds // see Hold

	handler  http.Handler
	ln       net.Listener
	srv      *http.Server
	certPEM  []byte
	closeOne sync.Once
}

// New returns a simulator that is not yet listening.
func New(opts ...Option) *Server {
	s := &Server{
		lockFor:  5 * time.Second,
		pace:     Pace{Chunk: 6, Interval: 30 * time.Millisecond},
		sticky:   map[string]Scenario{},
		locked:   map[string]time.Time{},
		lockNext: map[string]time.Duration{},
		secret:   randomBytes(32),
	}
	for _, o := range opts {
		o(s)
	}
	s.initialPace = s.pace
	s.handler = s.routes()
	return s
}

// Handler returns the handler that dispatches on the Host header; useful to
// mount the simulator in an httptest server.
func (s *Server) Handler() http.Handler { return s.handler }

// Start listens on addr (e.g. "127.0.0.1:0") and serves every site over
// HTTPS with a freshly generated self-signed certificate. It returns once the
// listener is bound; serving stops when ctx is done or Close is called. It
// returns an error when the certificate cannot be made or addr cannot be bound.
func (s *Server) Start(ctx context.Context, addr string) error {
	cert, certPEM, err := selfSignedCert()
	if err != nil {
		return fmt.Errorf("generate certificate: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	s.ln = ln
	s.certPEM = certPEM
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}},
		ErrorLog:          discardLogger(),
	}
	tlsLn := tls.NewListener(ln, s.srv.TLSConfig)
	go func() {
		if err := s.srv.Serve(tlsLn); err != nil && !errors.Is(err, http.ErrServerClosed) && s.logf != nil {
			s.logf("sim: serve: %v", err)
		}
	}()
	go func() {
		<-ctx.Done()
		s.Close()
	}()
	return nil
}

// Addr is the listening address ("127.0.0.1:PORT"); empty before Start.
func (s *Server) Addr() string {
	if s.ln == nil {
		return ""
	}
	return s.ln.Addr().String()
}

// CertPEM is the PEM of the self-signed certificate (for Go clients in tests).
func (s *Server) CertPEM() []byte { return s.certPEM }

// URL returns the real https URL of site with path, e.g. URL("chatgpt", "/")
// = "https://chatgpt.com/". It panics on an unknown site id (a test bug).
func URL(site, path string) string {
	st, ok := lookup(site)
	if !ok {
		panic("sim: unknown site " + site)
	}
	return "https://" + st.Host + path
}

// ChromiumFlags are the flags that make Chromium load every site from this
// simulator at its real URL: host-resolver rules mapping each hostname to the
// listening port (every other name fails to resolve, so nothing leaks to the
// network) and acceptance of the self-signed certificate. Chromium lists
// both in its "bad flags" and shows a headful window an "unsupported
// command-line flag" bar for them unless it runs as a test browser, which
// is what a browser on the simulator is: --test-type (last) keeps the bar
// away and changes nothing of what the pages see.
func (s *Server) ChromiumFlags() []string {
	return []string{"--host-resolver-rules=" + s.HostResolverRules(), "--ignore-certificate-errors", "--test-type"}
}

// HostResolverRules is the value of --host-resolver-rules for this server.
func (s *Server) HostResolverRules() string {
	_, port, _ := net.SplitHostPort(s.Addr())
	var rules []string
	for _, h := range allHosts() {
		rules = append(rules, "MAP "+h+" 127.0.0.1:"+port)
	}
	rules = append(rules, "MAP * ~NOTFOUND", "EXCLUDE 127.0.0.1")
	return strings.Join(rules, ",")
}

// Close stops the listener and aborts streams in flight. Safe to call twice.
func (s *Server) Close() {
	s.closeOne.Do(func() {
		s.mu.Lock()
		closers := s.closers
		s.mu.Unlock()
		for _, fn := range closers {
			fn()
		}
		if s.srv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_ = s.srv.Shutdown(ctx)
			_ = s.srv.Close()
		}
	})
}

func (s *Server) routes() http.Handler {
	sites := map[string]http.Handler{}
	for _, id := range Sites() {
		st, _ := lookup(id)
		sites[id] = st.Routes(s)
	}
	admin := s.adminRoutes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.logf != nil {
			s.logf("sim: %s %s%s", r.Method, r.Host, r.URL.Path)
		}
		if strings.HasPrefix(r.URL.Path, "/__sim/turns/") {
			s.serveTurns(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/__sim/") || r.URL.Path == "/__sim" {
			admin.ServeHTTP(w, r)
			return
		}
		site := SiteForHost(r.Host)
		h, ok := sites[site]
		if !ok {
			// Plain loopback visits (ferry sim in a normal browser) get the index.
			if r.URL.Path == "/" {
				s.serveIndex(w, r)
				return
			}
			http.Error(w, "sim: no site answers for host "+r.Host, http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// IndexURL is the address of the index page that lists the sites, the
// Chromium flags and the scenarios ("https://127.0.0.1:PORT/"); empty before
// Start.
func (s *Server) IndexURL() string {
	if s.ln == nil {
		return ""
	}
	return "https://" + s.Addr() + "/"
}
