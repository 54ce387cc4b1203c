package cli

import (
	"context"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

// The CLI as a client of a running owner. An owner (the desktop app or
// `ferry serve`) holds the store, so a command that needs it goes through
// the owner's local API instead of opening the store; when no owner runs
// the command works in this process. Every command is written once against
// service.Service and chooses in openService, so both ways print the same
// output and end with the same exit code. Commands that need neither
// (version, help, doctor, settings, verify, sim) never open the store.

// ownerClient finds the running owner of the data directory through its hub
// file. Errors: a *client.NoOwnerError (errs.HubNotRunning) when none runs;
// the hub file's errors (errs.BadInput for a file others could read).
func ownerClient(ctx context.Context, inv *invocation) (*client.Client, error) {
	paths, err := config.ResolvePaths(inv.dataDir)
	if err != nil {
		return nil, err
	}
	ep, err := client.Discover(ctx, paths.HubFile())
	if err != nil {
		return nil, err
	}
	return client.New(ep), nil
}

// needOwner is ownerClient for the commands that only make sense with a
// running owner (pair, approvals, clients).
func needOwner(ctx context.Context, inv *invocation, what string) (*client.Client, error) {
	cl, err := ownerClient(ctx, inv)
	if client.IsNoOwner(err) {
		return nil, errs.From(err).WithHint("%s needs a running owner: start the Ferry app or `ferry serve` for this data directory", what)
	}
	return cl, err
}
