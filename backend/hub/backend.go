package hub

import (
	"context"

	"github.com/ferrydesk/ferry/backend/service"
)

// The hub serves a service.Service: each route decodes its typed request,
// takes the Caller from the token (the owner token: the owner; a paired
// client's: that agent) and writes the Service's typed result. The
// Service's errors are errs envelopes; the hub maps their codes to HTTP
// statuses and passes them to the client unchanged (anything else becomes
// errs.Internal). What only the owner's implementation can answer (whom a
// token stands for, pairing, artifacts, the browser's address) it asks
// through service.Gateway.

// ownerCaller is the caller of the owner's requests: the owner token, and
// the owner's actions the desktop calls on the Server directly.
var ownerCaller = service.Owner(service.FaceCLI)

// service is the Service's caller for c.
func (c Caller) service() service.Caller {
	if c.Owner {
		return ownerCaller
	}
	return service.Agent(c.ClientID)
}

// EventSource delivers run events (run.update, run.partial) from the
// pipeline. Events must carry the JobID and the RequestedBy of the job as
// ClientID, so that the hub shows each client only its own runs. The channel
// is closed when ctx ends or the source stops.
type EventSource interface {
	Events(ctx context.Context) (<-chan Event, error)
}
