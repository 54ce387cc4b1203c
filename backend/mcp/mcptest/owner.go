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
	Backend *core.HubBackend
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
	hb, err := c.HubBackend(ctx, core.WithHubBrowser(h.Browser))
	if err != nil {
		c.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		hb.Close(cctx)
		c.Close()
	})
	return Owner{Service: core.NewService(c, hb), Core: c, Backend: hb, Sim: h.Server}
}
