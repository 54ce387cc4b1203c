package hub

import (
	"github.com/ferrydesk/ferry/backend/service"
)

// The hub serves a service.Service: each route decodes its typed request,
// takes the Caller from the token (the owner token: the owner; a paired
// client's: that agent) and writes the Service's typed result. The
// Service's errors are errs envelopes; the hub maps their codes to HTTP
// statuses and passes them to the client unchanged (anything else becomes
// errs.Internal). What only the owner's implementation can answer (whom a
// token stands for, pairing, artifacts, the browser's address, the
// owner's events) it asks through service.Gateway.

// service is the Service's caller for c: the owner's token is the owner's
// CLI face.
func (c Caller) service() service.Caller {
	if c.Owner {
		return service.Owner(service.FaceCLI)
	}
	return service.Agent(c.ClientID)
}
