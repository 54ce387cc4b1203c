package cli

import (
	"context"

	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/service"
)

// cliCaller is who the CLI's requests come from: the owner's command line
// (through a running owner, its token says the same).
var cliCaller = service.Owner(service.FaceCLI)

// openService is the one choice of implementation for a command written
// against service.Service: the owner's (hub/client) when an owner runs for
// the data directory, else an in-process one over it (core), opened for
// this command and closed by done. Errors: the hub file's (errs.BadInput for
// a file others could read); the data directory's (errs.StoreBusy when
// another process holds the store without a hub).
func openService(ctx context.Context, inv *invocation) (svc service.Service, done func(), err error) {
	cl, err := ownerClient(ctx, inv)
	switch {
	case err == nil:
		return client.NewService(cl), func() {}, nil
	case !client.IsNoOwner(err):
		return nil, nil, err
	}
	return openLocal(ctx, inv.dataDir, "cli")
}

// ownerService is the owner's Service for the commands that only make sense
// with a running owner (approvals, clients). Errors: as needOwner.
func ownerService(ctx context.Context, inv *invocation, what string) (service.Service, error) {
	cl, err := needOwner(ctx, inv, what)
	if err != nil {
		return nil, err
	}
	return client.NewService(cl), nil
}
