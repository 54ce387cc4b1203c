package client

import (
	"context"
	"net/http"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

type actAsKey struct{}

// actingAs is ctx carrying c's client id when c is an agent: the requests
// sent under it carry hub.ActAsHeader, so that a face the user runs as an
// agent (the MCP server, holding the owner's token) is taken for that
// agent. The owner refuses the header on any token but its own.
func actingAs(ctx context.Context, c service.Caller) context.Context {
	if c.IsOwner() || c.Client == "" {
		return ctx
	}
	return context.WithValue(ctx, actAsKey{}, c.Client)
}

// setActAs puts the act-as header of ctx, if any, on h.
func setActAs(ctx context.Context, h http.Header) {
	if id, ok := ctx.Value(actAsKey{}).(string); ok {
		h.Set(hub.ActAsHeader, id)
	}
}

// EnsureAgent returns the agent client of req's name and kind on the
// owner, creating it the first time (owner only). Errors: the owner's
// envelopes.
func (c *Client) EnsureAgent(ctx context.Context, req service.EnsureAgentRequest) (hub.ClientInfo, error) {
	var out hub.ClientInfo
	return out, c.do(ctx, http.MethodPost, "/v1/clients/agents", req, &out)
}

// EnsureAgent returns the agent client of req's name and kind on the
// owner, creating it the first time (owner only). Errors: req.Validate's;
// the owner's envelopes (errs.HubForbidden for an agent's token).
func (s *Service) EnsureAgent(ctx context.Context, c service.Caller, req service.EnsureAgentRequest) (service.ClientInfo, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.ClientInfo{}, err
	}
	return s.c.EnsureAgent(ctx, req)
}
