package core

import (
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

// viaGateway reports whether approvals, clients and pairing go through the
// owner's gateway, and returns it; with a gateway that did not start, err
// says so.
func (s *Service) viaGateway() (srv *hub.Server, use bool, err error) {
	if !s.gateway {
		return nil, false, nil
	}
	if s.srv == nil {
		return nil, true, errs.New(errs.HubNotRunning, "the local gateway is not running in this window").
			WithHint("agents and the CLI cannot reach Ferry until it runs: check the Settings view's problem banner, or restart Ferry")
	}
	return s.srv, true, nil
}
