package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/service"
)

// Server is the local gateway of one owner process. Create it with New,
// start it with Start and stop it with Close.
type Server struct {
	svc service.Gateway
	opt options
	log *slog.Logger

	limiter *rateLimiter
	dedup   *dedupCache
	bus     *bus
	mux     *http.ServeMux

	mu          sync.Mutex
	started     bool
	closed      bool
	guard       *guard
	port        int
	pid         int
	startedAt   time.Time
	ownerDigest service.Digest
	ownerToken  string // kept only to recognise our own hub file on Close
	httpSrv     *http.Server
	conns       map[string]map[*websocket.Conn]struct{} // client id -> open streams

	ctx    context.Context // ends at Close: background work and streams
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns a Server in front of svc. Errors: errs.BadInput when svc is
// nil.
func New(svc service.Gateway, opts ...Option) (*Server, error) {
	if svc == nil {
		return nil, errs.New(errs.BadInput, "hub.New needs a service")
	}
	o := defaultOptions()
	for _, fn := range opts {
		fn(&o)
	}
	if o.heartbeat <= 0 {
		o.heartbeat = DefaultHeartbeat
	}
	if o.dedupWindow <= 0 {
		o.dedupWindow = DefaultDedupWindow
	}
	s := &Server{
		svc:     svc,
		opt:     o,
		log:     o.logger,
		limiter: newRateLimiter(o.rateN, o.rateWindow, o.now),
		dedup:   newDedupCache(o.dedupWindow, o.now),
		bus:     newBus(o.now),
		conns:   map[string]map[*websocket.Conn]struct{}{},
	}
	s.mux = s.routes()
	return s, nil
}

// Start mints the owner token, listens on 127.0.0.1 at a port the system
// picks, publishes the hub file (WithHubFile) and serves until Close.
// Errors: errs.StoreBusy when the hub file names another owner that
// answers; errs.Internal when the port cannot be opened; the hub file's
// errors.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errs.New(errs.Internal, "hub already started")
	}
	if s.opt.hubFile != "" {
		if err := refuseLiveOwner(ctx, s.opt.hubFile); err != nil {
			return err
		}
	}
	token, digest, err := service.MintToken(OwnerClientID)
	if err != nil {
		return errs.Wrap(err, errs.Internal, "mint owner token: %v", err)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return errs.Wrap(err, errs.Internal, "listen on 127.0.0.1: %v", err)
	}
	s.port = ln.Addr().(*net.TCPAddr).Port
	s.pid = os.Getpid()
	s.startedAt = s.opt.now().UTC()
	s.ownerDigest, s.ownerToken = digest, token
	s.guard = newGuard(s.port, s.opt.origins)
	if s.opt.hubFile != "" {
		f := hubfile.File{Port: s.port, Token: token, PID: s.pid, StartedAt: s.startedAt}
		if err := hubfile.Write(s.opt.hubFile, f); err != nil {
			ln.Close()
			return err
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.httpSrv = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := s.httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("serve hub", "err", err)
		}
	}()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.pumpEvents(s.ctx)
	}()
	s.started = true
	s.log.Info("hub listening", "addr", ln.Addr().String())
	return nil
}

// refuseLiveOwner fails when the hub file at path belongs to a live owner:
// two owners of one data directory would fight over the file.
func refuseLiveOwner(ctx context.Context, path string) error {
	f, err := hubfile.Read(path)
	if err != nil {
		return nil // missing or unusable: ours replaces it
	}
	if !hubfile.ProcessAlive(f.PID) {
		return nil
	}
	d := net.Dialer{Timeout: time.Second}
	c, err := d.DialContext(ctx, "tcp", fmt.Sprintf("127.0.0.1:%d", f.Port))
	if err != nil {
		return nil
	}
	c.Close()
	return errs.New(errs.StoreBusy, "another Ferry owner (pid %d) serves this data directory on port %d", f.PID, f.Port).
		WithEvidence("pid", fmt.Sprint(f.PID)).
		WithEvidence("hubFile", path)
}

// Port is the TCP port the hub listens on (0 before Start).
func (s *Server) Port() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.port
}

// Close stops the hub: open event streams are closed with "going away",
// in-flight requests get until ctx ends, and the hub file is removed if it
// is still ours. Calling Close more than once is harmless.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	if !s.started || s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	var open []*websocket.Conn
	for _, set := range s.conns {
		for c := range set {
			open = append(open, c)
		}
	}
	s.mu.Unlock()
	closeAll(open, websocket.StatusGoingAway, "ferry hub is shutting down")

	s.cancel()
	err := s.httpSrv.Shutdown(ctx)
	if err != nil {
		s.httpSrv.Close()
	}
	s.wg.Wait()
	if s.opt.hubFile != "" {
		if rmErr := hubfile.RemoveIfOwned(s.opt.hubFile, s.pid, s.ownerToken); rmErr != nil && err == nil {
			err = rmErr
		}
	}
	if err != nil {
		return fmt.Errorf("close hub: %w", err)
	}
	return nil
}

func (s *Server) addConn(clientID string, c *websocket.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	set := s.conns[clientID]
	if set == nil {
		set = map[*websocket.Conn]struct{}{}
		s.conns[clientID] = set
	}
	set[c] = struct{}{}
	return true
}

func (s *Server) removeConn(clientID string, c *websocket.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if set := s.conns[clientID]; set != nil {
		delete(set, c)
		if len(set) == 0 {
			delete(s.conns, clientID)
		}
	}
}

// closeClientConns ends every open stream of a client (after revocation).
func (s *Server) closeClientConns(clientID string, code websocket.StatusCode, reason string) {
	s.mu.Lock()
	conns := make([]*websocket.Conn, 0, len(s.conns[clientID]))
	for c := range s.conns[clientID] {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	go closeAll(conns, code, reason)
}

// closeAll closes connections in parallel: each close handshake may wait
// for a slow peer.
func closeAll(conns []*websocket.Conn, code websocket.StatusCode, reason string) {
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close(code, reason)
		}()
	}
	wg.Wait()
}

// Serve makes a Server in front of svc and starts it: New, then Start.
// Errors: as New and Start (nothing serves then).
func Serve(ctx context.Context, svc service.Gateway, opts ...Option) (*Server, error) {
	s, err := New(svc, opts...)
	if err != nil {
		return nil, err
	}
	if err := s.Start(ctx); err != nil {
		return nil, err
	}
	return s, nil
}
