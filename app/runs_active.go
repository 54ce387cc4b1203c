package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/service"
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
	case service.DesktopRequester:
		return originDesktop
	case service.OwnerRequester:
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
	err := r.sh.withService(func(svc service.Service) error {
		ctx, cancel := context.WithTimeout(context.Background(), namesTimeout)
		defer cancel()
		jobs, err := svc.ListActiveJobs(ctx, desktopCaller, service.ListActiveJobsRequest{})
		if err != nil {
			return err
		}
		for _, j := range jobs {
			info, err := r.info(ctx, svc, j)
			if err != nil {
				info = runInfoOf(j) // a run unreadable now is listed without its record
			}
			out = append(out, info)
		}
		nameClients(ctx, svc, out)
		return nil
	})
	return out, err
}

// nameClients fills the ClientName of agents' runs from the gateway's
// paired clients; without the gateway the names stay empty.
func nameClients(ctx context.Context, svc service.Service, infos []RunInfo) {
	need := false
	for _, in := range infos {
		need = need || in.Origin == originAgent
	}
	if !need {
		return
	}
	clients, err := svc.ListClients(ctx, desktopCaller, service.ListClientsRequest{})
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
