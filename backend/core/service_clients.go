package core

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

// ListClients lists the paired clients, revoked ones included, oldest
// first. Errors: errs.HubForbidden for an agent; store failures.
func (s *Service) ListClients(ctx context.Context, c service.Caller, req service.ListClientsRequest) ([]service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return nil, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return nil, err
		}
		return srv.Clients(ctx)
	}
	recs, err := s.c.HubClients().List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]service.ClientInfo, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Info())
	}
	return out, nil
}

// RevokeClient revokes a client in the store (revoking twice is harmless).
// Errors: errs.HubForbidden for an agent; errs.HubNotFound; store failures.
func (s *Service) RevokeClient(ctx context.Context, c service.Caller, req service.ClientRef) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.ClientInfo{}, err
		}
		return srv.Revoke(ctx, req.ID)
	}
	store := s.c.HubClients()
	rec, err := store.Get(ctx, req.ID)
	if err != nil {
		return service.ClientInfo{}, err
	}
	if rec.RevokedAt == nil {
		now := time.Now().UTC()
		rec.RevokedAt = &now
		if err := store.Put(ctx, rec); err != nil {
			return service.ClientInfo{}, err
		}
	}
	return rec.Info(), nil
}

// SetAutoApprove sets whether a client's jobs skip the approval. Errors:
// errs.HubForbidden for an agent; errs.HubNotFound; errs.BadInput for a
// revoked client.
func (s *Service) SetAutoApprove(ctx context.Context, c service.Caller, req service.AutoApproveRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.ClientInfo{}, err
		}
		return srv.SetAutoApprove(ctx, req.ID, req.AutoApprove)
	}
	return s.editClient(ctx, req.ID, func(rec *hub.ClientRecord) { rec.AutoApprove = req.AutoApprove })
}

// GrantClient sets whether a client's jobs may name the user's existing
// tabs, conversations and runs. Errors: as SetAutoApprove.
func (s *Service) GrantClient(ctx context.Context, c service.Caller, req service.GrantRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.ClientInfo{}, err
		}
		return srv.GrantExisting(ctx, req.ID, req.ExistingConversations)
	}
	return s.editClient(ctx, req.ID, func(rec *hub.ClientRecord) { rec.ExistingConversations = req.ExistingConversations })
}

// SetFileRoots replaces the folders under which a client's jobs may name
// files to attach (cleaned, each once); through the window's gateway when
// it runs one. Errors: as SetAutoApprove; req.Validate's (errs.BadInput).
func (s *Service) SetFileRoots(ctx context.Context, c service.Caller, req service.FileRootsRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.ClientInfo{}, err
		}
		return srv.SetFileRoots(ctx, req.ID, req.Roots)
	}
	roots, err := hub.CleanFileRoots(req.Roots)
	if err != nil {
		return service.ClientInfo{}, err
	}
	return s.editClient(ctx, req.ID, func(rec *hub.ClientRecord) { rec.FileRoots = roots })
}

// editClient applies edit to a paired client in the store that is not
// revoked. Errors: errs.HubNotFound; errs.BadInput for a revoked client;
// store failures.
func (s *Service) editClient(ctx context.Context, id string, edit func(*hub.ClientRecord)) (service.ClientInfo, error) {
	store := s.c.HubClients()
	rec, err := store.Get(ctx, id)
	if err != nil {
		return service.ClientInfo{}, err
	}
	if rec.RevokedAt != nil {
		return service.ClientInfo{}, errs.New(errs.BadInput, "client %q was revoked; pair it again instead", rec.ID).
			WithHint("pair the client again for a new token")
	}
	edit(&rec)
	if err := store.Put(ctx, rec); err != nil {
		return service.ClientInfo{}, err
	}
	return rec.Info(), nil
}

// NewPairingCode cannot be served in-process: a pairing code is redeemed by
// the hub that drew it. Errors: errs.HubForbidden for an agent;
// errs.HubNotRunning.
func (s *Service) NewPairingCode(ctx context.Context, c service.Caller, req service.PairingRequest) (service.PairingCode, error) {
	if err := admit(c, "pair clients", req); err != nil {
		return service.PairingCode{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.PairingCode{}, err
		}
		return srv.NewPairingCode()
	}
	return service.PairingCode{}, errs.New(errs.HubNotRunning, "pairing needs a running Ferry owner: its hub redeems the code").
		WithHint("start the Ferry app or `ferry serve`, then ask for a pairing code")
}

// EnsureAgent returns the agent client of req's name and kind, creating it
// without a token the first time (hub.EnsureAgent); through the window's
// gateway when it runs one. Errors: errs.HubForbidden for an agent;
// req.Validate's; store failures.
func (s *Service) EnsureAgent(ctx context.Context, c service.Caller, req service.EnsureAgentRequest) (service.ClientInfo, error) {
	if err := admit(c, "manage clients", req); err != nil {
		return service.ClientInfo{}, err
	}
	if srv, use, err := s.viaGateway(); use {
		if err != nil {
			return service.ClientInfo{}, err
		}
		return srv.EnsureAgent(ctx, req)
	}
	return hub.EnsureAgent(ctx, s.c.HubClients(), req, time.Now())
}
