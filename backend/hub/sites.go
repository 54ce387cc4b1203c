package hub

import (
	"net/http"

	"github.com/ferrydesk/ferry/backend/service"
)

// handleListSites serves GET /v1/sites: the site registry (owner only,
// for a face the user runs remotely, such as the MCP server).
func (s *Server) handleListSites(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.ListSites(r.Context(), c.service(), service.ListSitesRequest{})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

// handleTabStates serves GET /v1/tabs/states: the owner's tabs with what a
// run would meet in each (owner only).
func (s *Server) handleTabStates(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.TabStates(r.Context(), c.service(), service.TabStatesRequest{})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

// handleDoctorSites serves POST /v1/sites/doctor: the live check of the
// sites in the owner's browser (owner only).
func (s *Server) handleDoctorSites(w http.ResponseWriter, r *http.Request, c Caller) {
	var req service.SitesDoctorRequest
	if e := decodeJSON(w, r, 16<<10, &req); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	out, err := s.svc.DoctorSites(r.Context(), c.service(), req)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handleTabAction serves POST /v1/tabs/action: show, close or log in on
// one of the owner's tabs (owner only).
func (s *Server) handleTabAction(w http.ResponseWriter, r *http.Request, c Caller) {
	var req service.TabActionRequest
	if e := decodeJSON(w, r, 4<<10, &req); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	out, err := s.svc.TabAction(r.Context(), c.service(), req)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
