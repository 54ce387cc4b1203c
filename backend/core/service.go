package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

// Service is the in-process implementation of service.Service: every
// operation runs here, over this core's store and browser, through the
// HubBackend's jobs (which also feed a hub when one serves them). It
// decides what a Caller may do as the hub's routes do: the owner's faces
// may do everything; an agent submits and follows its own jobs, reads the
// history, the tabs and the templates, and nothing else.
//
// Approvals and clients are decided on the store; a running hub keeps its
// own approval queue and connections, so while one runs, decide through it.
type Service struct {
	c *Core
	h *HubBackend
}

var _ service.Service = (*Service)(nil)

// NewService serves c through h (the jobs' runner; h must be c's).
func NewService(c *Core, h *HubBackend) *Service { return &Service{c: c, h: h} }

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
