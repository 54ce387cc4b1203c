package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/jobs"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

// Service is the in-process implementation of service.Service: every
// operation is decided here and runs over this core's store and browser,
// through the owner's job runner (package jobs; StartOwner makes both). It
// decides what a Caller may see and do, for every face: the owner's faces
// may do everything; an agent submits and follows its own jobs, reads its
// own runs, the tabs its jobs opened and the templates, and names the
// user's tabs, conversations and runs only with the user's grant
// (service_scope.go). It is also the service.Gateway the owner's local
// gateway serves: approvals, clients and pairing are decided here, once.
type Service struct {
	c *Core
	h *jobs.Runner

	browser *ownerbrowser.Browser // the owner's long-lived browser; nil without one
	gateway gatewayFlag           // whether the owner's gateway serves this Service
}

var _ service.Gateway = (*Service)(nil)

// newService serves c through h (the jobs' runner; h must be c's) and b,
// the owner's long-lived browser (nil without one), which the browser
// operations and tabs.States use.
func newService(c *Core, h *jobs.Runner, b *ownerbrowser.Browser) *Service {
	return &Service{c: c, h: h, browser: b}
}

// Hello says which Ferry answers and who it takes c for. Errors: none.
func (s *Service) Hello(ctx context.Context, c service.Caller, req service.HelloRequest) (service.Hello, error) {
	return service.Hello{Version: version.Version, Wire: service.WireRevision, Caller: c}, nil
}

// ownerOnly refuses an agent what only the user may do.
func ownerOnly(c service.Caller, what string) error { return service.RequireOwner(c, what) }

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
