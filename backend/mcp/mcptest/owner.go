package mcptest

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// Owner is a real core over the simulator's headless Chromium, served in
// process: what the MCP tests drive.
type Owner struct {
	Service *core.Service
	Core    *core.Core
	Jobs    *core.Owner // serves Service; a test may start the gateway in front of it (Jobs.Serve)
	Sim     *sim.Server
}

// StartOwner starts the simulator and its browser, opens a core on a fresh
// data directory (HOME and the config directory set to fresh ones too) and
// returns its in-process Service; all is closed when t ends.
func StartOwner(t *testing.T, ctx context.Context) Owner {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv(config.EnvConfigDir, t.TempDir())
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	c, err := core.Open(ctx, core.Options{DataDir: t.TempDir(), Role: "serve"})
	if err != nil {
		t.Fatal(err)
	}
	o := core.StartOwner(c, core.OwnerOptions{Browser: h.Browser})
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		o.Stop(cctx)
		c.Close()
	})
	return Owner{Service: o.Service, Core: c, Jobs: o, Sim: h.Server}
}
