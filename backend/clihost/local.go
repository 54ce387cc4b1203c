package clihost

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/cli"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() { cli.SetLocal(openLocal) }

// openLocal opens the data directory in this process for one command and
// serves it through core.Service; done closes the job runner, then the
// store. Errors: core.Open's (errs.StoreBusy when another process holds
// the store without a hub) and the job runner's.
func openLocal(ctx context.Context, dataDir, role string) (service.Service, func(), error) {
	c, err := core.Open(ctx, core.Options{DataDir: dataDir, Role: role})
	if err != nil {
		return nil, nil, err
	}
	o := core.StartOwner(c, core.OwnerOptions{})
	return o.Service, func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		_ = o.Stop(cctx)
		_ = c.Close()
	}, nil
}
