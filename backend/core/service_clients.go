package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/clients"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The clients: the agents that may use the owner's local API, their
// settings and the pairing codes that make new ones. They are kept in the
// store (package clients); this file is the one place that changes them,
// for every face, the gateway's routes included.

// ListClients lists the paired clients, revoked ones included, oldest
// first. Errors: errs.HubForbidden for an agent; store failures.
func (s *Service) ListClients(ctx context.Context, c service.Caller, req service.ListClientsRequest) ([]service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return nil, err
	}
	recs, err := s.c.clients.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]service.ClientInfo, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Info())
	}
	return out, nil
}

// RevokeClient revokes a client (revoking twice is harmless): its next
// request fails, and the client.revoked event ends its open streams.
// Errors: errs.HubForbidden for an agent; errs.HubNotFound; store failures.
func (s *Service) RevokeClient(ctx context.Context, c service.Caller, req service.ClientRef) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	rec, err := s.c.clients.Revoke(ctx, req.ID)
	if err != nil {
		return service.ClientInfo{}, err
	}
	info := rec.Info()
	s.h.Publish(service.Event{Type: service.EventClientRevoked, ClientID: service.OwnerRequester, Data: &service.EventData{Client: &info}})
	return info, nil
}

// SetAutoApprove sets whether a client's jobs skip the approval. Errors:
// errs.HubForbidden for an agent; errs.HubNotFound; errs.BadInput for a
// revoked client.
func (s *Service) SetAutoApprove(ctx context.Context, c service.Caller, req service.AutoApproveRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	return s.editClient(ctx, req.ID, func(rec *clients.Record) { rec.AutoApprove = req.AutoApprove })
}

// GrantClient sets whether a client's jobs may name the user's existing
// tabs, conversations and runs. Errors: as SetAutoApprove.
func (s *Service) GrantClient(ctx context.Context, c service.Caller, req service.GrantRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	return s.editClient(ctx, req.ID, func(rec *clients.Record) { rec.ExistingConversations = req.ExistingConversations })
}

// SetFileRoots replaces the folders under which a client's jobs may name
// files to attach (cleaned, each once). Errors: as SetAutoApprove;
// req.Validate's (errs.BadInput).
func (s *Service) SetFileRoots(ctx context.Context, c service.Caller, req service.FileRootsRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	roots, err := clients.CleanFileRoots(req.Roots)
	if err != nil {
		return service.ClientInfo{}, err
	}
	return s.editClient(ctx, req.ID, func(rec *clients.Record) { rec.FileRoots = roots })
}

func (s *Service) editClient(ctx context.Context, id string, edit func(*clients.Record)) (service.ClientInfo, error) {
	rec, err := s.c.clients.Edit(ctx, id, edit)
	if err != nil {
		return service.ClientInfo{}, err
	}
	return rec.Info(), nil
}

// EnsureAgent returns the agent client of req's name and kind, creating it
// without a token the first time. Errors: errs.HubForbidden for an agent;
// req.Validate's; store failures.
func (s *Service) EnsureAgent(ctx context.Context, c service.Caller, req service.EnsureAgentRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	rec, err := s.c.clients.EnsureAgent(ctx, req)
	if err != nil {
		return service.ClientInfo{}, err
	}
	return rec.Info(), nil
}

// NewPairingCode draws a one-time pairing code, which the owner's gateway
// redeems (Pair). Errors: errs.HubForbidden for an agent;
// errs.HubNotRunning where no gateway serves this Service.
func (s *Service) NewPairingCode(ctx context.Context, c service.Caller, req service.PairingRequest) (service.PairingCode, error) {
	if err := admit(c, "pair clients", req); err != nil {
		return service.PairingCode{}, err
	}
	if err := s.gatewayServes(); err != nil {
		return service.PairingCode{}, err
	}
	code, err := s.c.pairing.Issue()
	if err != nil {
		return service.PairingCode{}, errs.Wrap(err, errs.Internal, "issue pairing code: %v", err)
	}
	return code, nil
}

// Pair redeems a pairing code for a new paired client and its token.
// Errors: as service.Gateway's Pair.
func (s *Service) Pair(ctx context.Context, req service.PairRequest) (service.Paired, error) {
	return s.c.clients.Pair(ctx, s.c.pairing, req)
}

// Authenticate returns the paired client whose token tok is. Errors: as
// clients.Registry.Authenticate.
func (s *Service) Authenticate(ctx context.Context, tok string) (service.ClientInfo, error) {
	rec, err := s.c.clients.Authenticate(ctx, tok)
	if err != nil {
		return service.ClientInfo{}, err
	}
	return rec.Info(), nil
}

// ActAs returns agent client id if it may act now. Errors: as
// clients.Registry.Active.
func (s *Service) ActAs(ctx context.Context, id string) (service.ClientInfo, error) {
	rec, err := s.c.clients.Active(ctx, id)
	if err != nil {
		return service.ClientInfo{}, err
	}
	return rec.Info(), nil
}
