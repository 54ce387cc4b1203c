package hub

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// ActAsHeader names the agent client an owner-token request acts as: a face
// the user runs as an agent (the MCP server) holds the owner's token and
// names the agent client EnsureAgent made for it. Only the owner's token may
// name another client than its own.
const ActAsHeader = "Ferry-Act-As"

// ensureMu makes EnsureAgent's look-up and creation one step within the
// process, so that two requests for one name make one client.
var ensureMu sync.Mutex

// EnsureAgent returns the agent client of name and kind in store, creating
// it without a token (its TokenDigest is zero, which no token matches) the
// first time. A revoked one is returned as it is: the user's revocation
// stands. Errors: req.Validate's and cleanClientName's errs.BadInput; the
// store's errors.
func EnsureAgent(ctx context.Context, store ClientStore, req service.EnsureAgentRequest, now time.Time) (ClientInfo, error) {
	if err := req.Validate(); err != nil {
		return ClientInfo{}, err
	}
	name, e := cleanClientName(req.Name)
	if e != nil {
		return ClientInfo{}, e
	}
	ensureMu.Lock()
	defer ensureMu.Unlock()
	recs, err := store.List(ctx)
	if err != nil {
		return ClientInfo{}, err
	}
	for _, r := range recs {
		if r.Kind == req.Kind && r.Name == name {
			return r.Info(), nil
		}
	}
	id, err := newClientID()
	if err != nil {
		return ClientInfo{}, errs.Wrap(err, errs.Internal, "ensure agent client: %v", err)
	}
	rec := ClientRecord{ID: id, Name: name, Kind: req.Kind, CreatedAt: now.UTC()}
	if err := store.Put(ctx, rec); err != nil {
		return ClientInfo{}, err
	}
	return rec.Info(), nil
}

// EnsureAgent returns the agent client of req's name and kind, creating it
// the first time. Errors: as the package's EnsureAgent.
func (s *Server) EnsureAgent(ctx context.Context, req service.EnsureAgentRequest) (ClientInfo, error) {
	return EnsureAgent(ctx, s.clients, req, s.opt.now())
}

// actAs turns an owner-token request carrying ActAsHeader into a request of
// that agent client; a paired client's request naming itself is its own.
// Errors: errs.HubForbidden for a paired client's token naming another
// client; errs.HubUnauthorized for an unknown or revoked client.
func (s *Server) actAs(r *http.Request, c Caller) (Caller, *errs.Envelope) {
	id := strings.TrimSpace(r.Header.Get(ActAsHeader))
	if id == "" || (!c.Owner && id == c.ClientID) {
		return c, nil
	}
	if !c.Owner {
		return Caller{}, errs.New(errs.HubForbidden, "only the owner's token may act as another client").
			WithHint("drop the " + ActAsHeader + " header")
	}
	rec, err := s.clients.Get(r.Context(), id)
	if err != nil {
		if errs.Has(err, errs.HubNotFound) {
			return Caller{}, errs.New(errs.HubUnauthorized, "no client %q to act as", clip(id, 80))
		}
		return Caller{}, errs.Wrap(err, errs.Internal, "read client %s: %v", clip(id, 80), err)
	}
	if rec.RevokedAt != nil {
		return Caller{}, errs.New(errs.HubUnauthorized, "client %q (%s) was revoked", rec.Name, rec.ID).
			WithHint("the user revoked this agent in Ferry's settings")
	}
	return Caller{ClientID: rec.ID, Name: rec.Name, AutoApprove: rec.AutoApprove}, nil
}

func (s *Server) handleEnsureAgent(w http.ResponseWriter, r *http.Request, c Caller) {
	var req service.EnsureAgentRequest
	if e := decodeJSON(w, r, 4<<10, &req); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	info, err := s.EnsureAgent(r.Context(), req)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}
