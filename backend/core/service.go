package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

// Service is the in-process implementation of service.Service: every
// operation runs here, over this core's store and browser, through the
// HubBackend's jobs (which also feed a hub when one serves them). It
// decides what a Caller may see and do, for every face: the owner's faces
// may do everything; an agent submits and follows its own jobs, reads its
// own runs, the tabs its jobs opened and the templates, and names the
// user's tabs, conversations and runs only with the user's grant
// (service_scope.go).
//
// Approvals and clients are decided on the store; a running hub keeps its
// own approval queue and connections, so while one runs, decide through it:
// an owner that serves one passes WithGateway, and the approvals, clients
// and pairing operations then go through it.
type Service struct {
	c *Core
	h *HubBackend

	browser *OwnerBrowser // the owner's long-lived browser; nil without one
	gateway bool          // the owner runs a gateway: approvals and clients go through srv
	srv     *hub.Server   // the running gateway; nil when it did not start
}

var _ service.Service = (*Service)(nil)

// ServiceOption sets what an owner adds to a Service.
type ServiceOption func(*Service)

// WithOwnerBrowser gives the Service the owner's long-lived browser (the
// one h runs its jobs in): the browser operations and tabs.States use it.
func WithOwnerBrowser(b *OwnerBrowser) ServiceOption { return func(s *Service) { s.browser = b } }

// WithGateway says the owner serves a gateway, srv: approvals, clients and
// pairing go through its queue and connections. A nil srv is a gateway
// that did not start: they are errs.HubNotRunning then.
func WithGateway(srv *hub.Server) ServiceOption {
	return func(s *Service) { s.gateway, s.srv = true, srv }
}

// NewService serves c through h (the jobs' runner; h must be c's).
func NewService(c *Core, h *HubBackend, opts ...ServiceOption) *Service {
	s := &Service{c: c, h: h}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Hello says which Ferry answers and who it takes c for. Errors: none.
func (s *Service) Hello(ctx context.Context, c service.Caller, req service.HelloRequest) (service.Hello, error) {
	return service.Hello{Version: version.Version, Wire: service.WireRevision, Caller: c}, nil
}

// ownerOnly refuses an agent what only the user may do.
func ownerOnly(c service.Caller, what string) error {
	if c.IsOwner() {
		return nil
	}
	return errs.New(errs.HubForbidden, "only the owner (the Ferry app or the CLI) may %s", what).
		WithHint("ask the user to do this in Ferry")
}

// checkCaller refuses a request that names no caller: every request is the
// owner's or a paired client's.
func checkCaller(c service.Caller) error {
	if c.IsOwner() || c.Client != "" {
		return nil
	}
	return errs.New(errs.HubUnauthorized, "the request names no caller").
		WithHint("call with service.Owner(face) or service.Agent(clientID)")
}

// admit checks the caller, the owner rule when ownerWhat is not "", and
// the request.
func admit(c service.Caller, ownerWhat string, req interface{ Validate() error }) error {
	if err := checkCaller(c); err != nil {
		return err
	}
	if ownerWhat != "" {
		if err := ownerOnly(c, ownerWhat); err != nil {
			return err
		}
	}
	return req.Validate()
}
