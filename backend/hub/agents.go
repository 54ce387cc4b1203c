package hub

import (
	"net/http"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// ActAsHeader names the agent client an owner-token request acts as: a face
// the user runs as an agent (the MCP server) holds the owner's token and
// names the agent client EnsureAgent made for it. Only the owner's token may
// name another client than its own.
const ActAsHeader = "Ferry-Act-As"

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
	info, err := s.svc.ActAs(r.Context(), id)
	if err != nil {
		return Caller{}, s.authError(id, err)
	}
	return Caller{ClientID: info.ID, Name: info.Name}, nil
}

func (s *Server) handleEnsureAgent(w http.ResponseWriter, r *http.Request, c Caller) {
	var req service.EnsureAgentRequest
	if e := decodeJSON(w, r, 4<<10, &req); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	info, err := s.svc.EnsureAgent(r.Context(), c.service(), req)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}
