// Package client talks to a running Ferry owner's local gateway (package
// hub): Discover finds the owner through its hub file, Client calls the
// HTTP API, and Follower keeps an event stream open across restarts with
// backoff and a bounded queue of requests.
package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/service"
)

// Endpoint is where a hub listens and the token to use there. The token is
// unexported and never printed: String and GoString leave it out.
type Endpoint struct {
	Port      int
	PID       int // 0 when not known (an endpoint built from a port and token)
	StartedAt time.Time
	HubFile   string // "" when not discovered from a file
	// Owner is the owner's side of the version handshake, as its
	// GET /v1/whoami stated it (zero when not discovered).
	Owner service.Peer
	token string
}

// NewEndpoint is the endpoint of a hub at port for a client holding token
// (a paired client that does not read the hub file).
func NewEndpoint(port int, token string) Endpoint { return Endpoint{Port: port, token: token} }

// Host is the value of the Host header: 127.0.0.1 with the port.
func (e Endpoint) Host() string { return "127.0.0.1:" + strconv.Itoa(e.Port) }

// BaseURL is http://127.0.0.1:port.
func (e Endpoint) BaseURL() string { return "http://" + e.Host() }

// FindOwner finds the running owner whose hub file is at hubFile (what
// doctor.Probe.FindOwner asks): where it answers and its side of the
// version handshake. Errors: as Discover.
func FindOwner(ctx context.Context, hubFile string) (where string, owner service.Peer, err error) {
	ep, err := Discover(ctx, hubFile)
	if err != nil {
		return "", service.Peer{}, err
	}
	return ep.String(), ep.Owner, nil
}

// String describes the endpoint without its token.
func (e Endpoint) String() string {
	if e.PID > 0 {
		return fmt.Sprintf("ferry hub at %s (pid %d)", e.Host(), e.PID)
	}
	return "ferry hub at " + e.Host()
}

// GoString keeps the token out of %#v.
func (e Endpoint) GoString() string { return "client.Endpoint{" + e.String() + "}" }

// NoOwnerReason says why Discover found no running owner.
type NoOwnerReason string

// The reasons. A CLI treats them all alike (work embedded); they differ in
// what doctor output tells the user.
const (
	ReasonNoFile        NoOwnerReason = "no hub file"
	ReasonDeadProcess   NoOwnerReason = "the process in the hub file is gone"
	ReasonRefused       NoOwnerReason = "nothing listens on the hub file's port"
	ReasonTokenRejected NoOwnerReason = "the process on the hub file's port does not accept its token"
	ReasonNoAnswer      NoOwnerReason = "the hub did not answer in time"
)

// NoOwnerError is Discover's result when no owner runs (a missing or stale
// hub file). It unwraps to an errs.HubNotRunning envelope, so both
// errors.As(err, *NoOwnerError) and errs.Has(err, errs.HubNotRunning) work.
type NoOwnerError struct {
	HubFile string
	Reason  NoOwnerReason
	PID     int
	env     *errs.Envelope
}

func newNoOwner(path string, reason NoOwnerReason, pid int) *NoOwnerError {
	env := errs.New(errs.HubNotRunning, "no Ferry owner is running: %s (%s)", reason, path).WithEvidence("hubFile", path)
	if pid > 0 {
		env = env.WithEvidence("pid", strconv.Itoa(pid))
	}
	return &NoOwnerError{HubFile: path, Reason: reason, PID: pid, env: env}
}

func (e *NoOwnerError) Error() string { return e.env.Error() }

// Unwrap returns the errs.HubNotRunning envelope.
func (e *NoOwnerError) Unwrap() error { return e.env }

// IsNoOwner reports whether err says that no owner runs.
func IsNoOwner(err error) bool {
	var n *NoOwnerError
	return errors.As(err, &n)
}

// discoverTimeout bounds the liveness probe: a CLI must not hang on a wedged
// owner.
const discoverTimeout = 3 * time.Second

// Discover reads the hub file at path and checks that its owner is alive and
// accepts its token (GET /v1/whoami). It returns the endpoint, or a
// *NoOwnerError for a missing or stale file (dead pid, refused connection,
// token rejected by whatever now has the port, no answer). Other errors: the
// hub file's (errs.BadInput for an unreadable or group-readable file).
func Discover(ctx context.Context, path string) (Endpoint, error) {
	f, err := hubfile.Read(path)
	if err != nil {
		if errors.Is(err, hubfile.ErrNotExist) {
			return Endpoint{}, newNoOwner(path, ReasonNoFile, 0)
		}
		return Endpoint{}, err
	}
	if !hubfile.ProcessAlive(f.PID) {
		return Endpoint{}, newNoOwner(path, ReasonDeadProcess, f.PID)
	}
	ep := Endpoint{Port: f.Port, PID: f.PID, StartedAt: f.StartedAt, HubFile: path, token: f.Token}
	ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	who, err := New(ep, WithRetries(0)).WhoAmI(ctx)
	switch {
	case err == nil && who.Owner && who.PID == f.PID:
		ep.Owner = service.Peer{Version: who.Version, Wire: who.Wire}
		return ep, nil
	case err == nil:
		return Endpoint{}, newNoOwner(path, ReasonTokenRejected, f.PID)
	case errs.Has(err, errs.HubUnauthorized), errs.Has(err, errs.HubForbidden):
		return Endpoint{}, newNoOwner(path, ReasonTokenRejected, f.PID)
	case errors.Is(err, syscall.ECONNREFUSED):
		return Endpoint{}, newNoOwner(path, ReasonRefused, f.PID)
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		return Endpoint{}, newNoOwner(path, ReasonNoAnswer, f.PID)
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return Endpoint{}, newNoOwner(path, ReasonRefused, f.PID)
	}
	return Endpoint{}, err
}

// ownerHeader is what every request carries.
func (e Endpoint) authorize(h http.Header) {
	h.Set("Authorization", "Bearer "+e.token)
}
