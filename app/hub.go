package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

// EventHub carries the hub's approval and client events (hub.Event) to the
// window: approval.requested is the user's cue to approve or reject an
// agent's job.
const EventHub = "hub:event"

// ownerHub is the local gateway the app serves while it owns the data
// directory, so that the CLI and agents work while the app is open.
type ownerHub struct {
	srv     *hub.Server
	backend *core.HubBackend
	cancel  context.CancelFunc
}

// startHub serves the hub for c (the hub file goes to c's data directory).
// A failure is logged, not fatal: the app works without it, and the CLI
// then reports the store as busy.
func startHub(ctx context.Context, c *core.Core, log *slog.Logger, emit func() emitter) *ownerHub {
	backend, err := c.HubBackend(ctx)
	if err != nil {
		log.Warn("hub not started", "code", errs.CodeOf(err), "err", err)
		return nil
	}
	srv, err := hub.New(backend,
		hub.WithHubFile(c.Paths().HubFile()),
		hub.WithClientStore(c.HubClients()),
		hub.WithEventSource(backend),
		hub.WithLogger(log.With("part", "hub")))
	if err == nil {
		err = srv.Start(ctx)
	}
	if err != nil {
		log.Warn("hub not started", "code", errs.CodeOf(err), "err", err)
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = backend.Close(cctx)
		return nil
	}
	evCtx, cancel := context.WithCancel(context.Background())
	go func() {
		for ev := range srv.Subscribe(evCtx, 64) {
			switch ev.Type {
			case hub.EventApprovalRequested, hub.EventApprovalResolved, hub.EventClientRevoked:
				emit().Emit(EventHub, ev)
			}
		}
	}()
	return &ownerHub{srv: srv, backend: backend, cancel: cancel}
}

// stop closes the hub (removing its hub file) and stops its running jobs
// before the core closes the store. Safe on nil.
func (h *ownerHub) stop(log *slog.Logger) {
	if h == nil {
		return
	}
	h.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.srv.Close(ctx); err != nil {
		log.Error("close hub", "err", err)
	}
	if err := h.backend.Close(ctx); err != nil {
		log.Error("stop hub jobs", "err", err)
	}
}
