package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

// gatewayTimeout bounds one owner action on the local gateway.
const gatewayTimeout = 15 * time.Second

// Gateway is the frontend's API for the local gateway (the hub) this app
// serves: the approvals agents wait for, and the paired clients. Every
// method fails with hub_not_running when the gateway is not up (the core
// did not open, or the hub could not start; the log says why).
type Gateway struct {
	sh *shell
}

func (g *Gateway) server() (*hub.Server, error) {
	srv := g.sh.hubServer()
	if srv == nil {
		return nil, errs.New(errs.HubNotRunning, "the local gateway is not running in this window").
			WithHint("agents and the CLI cannot reach Ferry until it runs: check the Settings view's problem banner, or restart Ferry")
	}
	return srv, nil
}

// Approvals lists the jobs that wait for the user's decision, oldest first.
func (g *Gateway) Approvals() ([]hub.Approval, error) {
	srv, err := g.server()
	if err != nil {
		return []hub.Approval{}, err
	}
	return srv.Approvals(), nil
}

// Approve lets the job jobID run. Errors: hub_not_found when no job with
// that id waits (decided already, or cancelled by its client); the run's
// start errors.
func (g *Gateway) Approve(jobID string) (hub.Job, error) {
	srv, err := g.server()
	if err != nil {
		return hub.Job{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), gatewayTimeout)
	defer cancel()
	return srv.Approve(ctx, jobID)
}

// Reject ends the job jobID without running it; reason (may be "") is sent
// to its client. Errors: as Approve.
func (g *Gateway) Reject(jobID, reason string) (hub.Job, error) {
	srv, err := g.server()
	if err != nil {
		return hub.Job{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), gatewayTimeout)
	defer cancel()
	return srv.Reject(ctx, jobID, reason)
}

// Clients lists the paired clients, revoked ones included.
func (g *Gateway) Clients() ([]hub.ClientInfo, error) {
	srv, err := g.server()
	if err != nil {
		return []hub.ClientInfo{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), gatewayTimeout)
	defer cancel()
	return srv.Clients(ctx)
}

// PairingCode issues a one-time code (valid for five minutes at most) that
// an agent sends once to POST /v1/pair, with its name, for its own token.
func (g *Gateway) PairingCode() (hub.PairingCode, error) {
	srv, err := g.server()
	if err != nil {
		return hub.PairingCode{}, err
	}
	return srv.NewPairingCode()
}

// Revoke ends a client's access at once. Errors: hub_not_found.
func (g *Gateway) Revoke(clientID string) (hub.ClientInfo, error) {
	srv, err := g.server()
	if err != nil {
		return hub.ClientInfo{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), gatewayTimeout)
	defer cancel()
	return srv.Revoke(ctx, clientID)
}

// SetAutoApprove sets whether a client's jobs run without asking. Errors:
// hub_not_found; bad_input for a revoked client.
func (g *Gateway) SetAutoApprove(clientID string, on bool) (hub.ClientInfo, error) {
	srv, err := g.server()
	if err != nil {
		return hub.ClientInfo{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), gatewayTimeout)
	defer cancel()
	return srv.SetAutoApprove(ctx, clientID, on)
}
