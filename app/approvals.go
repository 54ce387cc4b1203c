package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/app/internal/desktop"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// gatewayTimeout bounds one owner action on the local gateway.
const gatewayTimeout = 15 * time.Second

// Gateway is the frontend's API for the local gateway (the hub) this app
// serves: the approvals agents wait for, the paired clients, and the
// snippets that register Ferry's MCP server in a coding agent. Every
// method but MCPConfigs fails with hub_not_running when the gateway is not up (the core
// did not open, or the hub could not start; the log says why).
type Gateway struct {
	sh   *shell
	desk desktop.Desktop
}

// call runs fn with the owner's Service within gatewayTimeout, or says
// that the gateway is not running when there is none.
func (g *Gateway) call(fn func(ctx context.Context, svc service.Service) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), gatewayTimeout)
	defer cancel()
	var ran bool
	err := g.sh.withService(func(svc service.Service) error {
		ran = true
		return fn(ctx, svc)
	})
	if !ran {
		return errs.New(errs.HubNotRunning, "the local gateway is not running in this window").
			WithHint("agents and the CLI cannot reach Ferry until it runs: check the Settings view's problem banner, or restart Ferry")
	}
	return err
}

// Approvals lists the jobs that wait for the user's decision, oldest first.
func (g *Gateway) Approvals() ([]service.Approval, error) {
	out := []service.Approval{}
	err := g.call(func(ctx context.Context, svc service.Service) error {
		list, err := svc.ListApprovals(ctx, desktopCaller, service.ListApprovalsRequest{})
		if list != nil {
			out = list
		}
		return err
	})
	return out, err
}

// Approve lets the job jobID run. Errors: hub_not_found when no job with
// that id waits (decided already, or cancelled by its client); the run's
// start errors.
func (g *Gateway) Approve(jobID string) (service.Job, error) {
	var out service.Job
	err := g.call(func(ctx context.Context, svc service.Service) error {
		var err error
		out, err = svc.Approve(ctx, desktopCaller, service.ApprovalRef{JobID: jobID})
		return err
	})
	return out, err
}

// Reject ends the job jobID without running it; reason (may be "") is sent
// to its client. Errors: as Approve.
func (g *Gateway) Reject(jobID, reason string) (service.Job, error) {
	var out service.Job
	err := g.call(func(ctx context.Context, svc service.Service) error {
		var err error
		out, err = svc.Reject(ctx, desktopCaller, service.RejectRequest{JobID: jobID, Reason: reason})
		return err
	})
	return out, err
}

// Clients lists the paired clients, revoked ones included.
func (g *Gateway) Clients() ([]service.ClientInfo, error) {
	out := []service.ClientInfo{}
	err := g.call(func(ctx context.Context, svc service.Service) error {
		list, err := svc.ListClients(ctx, desktopCaller, service.ListClientsRequest{})
		if list != nil {
			out = list
		}
		return err
	})
	return out, err
}

// PairingCode issues a one-time code (valid for five minutes at most) that
// an agent sends once to POST /v1/pair, with its name, for its own token.
func (g *Gateway) PairingCode() (service.PairingCode, error) {
	var out service.PairingCode
	err := g.call(func(ctx context.Context, svc service.Service) error {
		var err error
		out, err = svc.NewPairingCode(ctx, desktopCaller, service.PairingRequest{})
		return err
	})
	return out, err
}

// Revoke ends a client's access at once. Errors: hub_not_found.
func (g *Gateway) Revoke(clientID string) (service.ClientInfo, error) {
	var out service.ClientInfo
	err := g.call(func(ctx context.Context, svc service.Service) error {
		var err error
		out, err = svc.RevokeClient(ctx, desktopCaller, service.ClientRef{ID: clientID})
		return err
	})
	return out, err
}

// GrantClient sets whether a client's jobs may use the user's existing
// tabs, conversations and runs. Errors: hub_not_found; bad_input for a
// revoked client.
func (g *Gateway) GrantClient(clientID string, on bool) (service.ClientInfo, error) {
	var out service.ClientInfo
	err := g.call(func(ctx context.Context, svc service.Service) error {
		var err error
		out, err = svc.GrantClient(ctx, desktopCaller, service.GrantRequest{ID: clientID, ExistingConversations: on})
		return err
	})
	return out, err
}

// SetAutoApprove sets whether a client's jobs run without asking. Errors:
// hub_not_found; bad_input for a revoked client.
func (g *Gateway) SetAutoApprove(clientID string, on bool) (service.ClientInfo, error) {
	var out service.ClientInfo
	err := g.call(func(ctx context.Context, svc service.Service) error {
		var err error
		out, err = svc.SetAutoApprove(ctx, desktopCaller, service.AutoApproveRequest{ID: clientID, AutoApprove: on})
		return err
	})
	return out, err
}
