package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/hub"
)

// Origins of RunInfo.Origin.
const (
	originDesktop = "desktop"
	originCLI     = "cli"
	originAgent   = "agent"
)

// originOf says who asked for a job from its RequestedBy.
func originOf(requestedBy string) string {
	switch requestedBy {
	case core.DesktopRequester:
		return originDesktop
	case hub.OwnerClientID:
		return originCLI
	}
	return originAgent
}

// namesTimeout bounds the lookup of paired clients' names.
const namesTimeout = 5 * time.Second

// Active lists every run going on now, whoever asked for it (this app,
// the CLI through the gateway, a paired agent, named by its client name),
// oldest first. Their news comes as EventRun events; an ended run leaves
// the list (History has it). Errors: why the job runner is not open.
func (r *Runs) Active() ([]RunInfo, error) {
	out := []RunInfo{}
	err := r.sh.withHub(func(c *core.Core, h *ownerHub) error {
		ctx, cancel := context.WithTimeout(context.Background(), namesTimeout)
		defer cancel()
		for _, j := range h.backend.RunningJobs(ctx) {
			info, err := runInfoOf(j)
			if err != nil {
				continue // one unreadable record does not hide the others
			}
			out = append(out, info)
		}
		nameClients(ctx, h, out)
		return nil
	})
	return out, err
}

// nameClients fills the ClientName of agents' runs from the gateway's
// paired clients; without the gateway the names stay empty.
func nameClients(ctx context.Context, h *ownerHub, infos []RunInfo) {
	need := false
	for _, in := range infos {
		need = need || in.Origin == originAgent
	}
	if !need || h.srv == nil {
		return
	}
	clients, err := h.srv.Clients(ctx)
	if err != nil {
		return
	}
	names := make(map[string]string, len(clients))
	for _, c := range clients {
		names[c.ID] = c.Name
	}
	for i := range infos {
		if infos[i].Origin == originAgent {
			infos[i].ClientName = names[infos[i].RequestedBy]
		}
	}
}
