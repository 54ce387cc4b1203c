package core

import (
	"sync/atomic"

	"github.com/ferrydesk/ferry/backend/errs"
)

// gatewayState says whether the owner's local gateway serves a Service,
// which decides whether a pairing code can be redeemed.
type gatewayState int32

const (
	gatewayNone gatewayState = iota // no gateway: the in-process CLI
	gatewayDown                     // the window's gateway did not start (yet)
	gatewayUp                       // the gateway serves this Service
)

// gatewayFlag is a gatewayState read and set from several goroutines.
type gatewayFlag struct{ v atomic.Int32 }

func (f *gatewayFlag) get() gatewayState  { return gatewayState(f.v.Load()) }
func (f *gatewayFlag) set(g gatewayState) { f.v.Store(int32(g)) }

// gatewayServes refuses what needs a running gateway when none serves.
func (s *Service) gatewayServes() error {
	switch s.gateway.get() {
	case gatewayUp:
		return nil
	case gatewayDown:
		return errs.New(errs.HubNotRunning, "the local gateway is not running in this window").
			WithHint("agents and the CLI cannot reach Ferry until it runs: check the Settings view's problem banner, or restart Ferry")
	}
	return errs.New(errs.HubNotRunning, "pairing needs a running Ferry owner: its hub redeems the code").
		WithHint("start the Ferry app or `ferry serve`, then ask for a pairing code")
}
