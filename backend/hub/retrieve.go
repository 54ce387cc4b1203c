package hub

import (
	"net/http"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// handleRetrieve answers POST /v1/retrieve: the retrieval runs in the
// owner (the service decides what an agent may retrieve), in its browser
// unless the request names a loopback one, and the answer is the receipt
// with the run's error (200), or the error alone when no receipt was begun.
func (s *Server) handleRetrieve(w http.ResponseWriter, r *http.Request, c Caller) {
	var req service.RetrieveRequest
	if !decodeBrowsing(w, r, 16<<10, &req, func() *service.BrowserSpec { return req.Browser }) {
		return
	}
	rc, err := s.svc.Retrieve(r.Context(), c.service(), req)
	if rc == nil {
		if err == nil {
			err = errs.New(errs.Internal, "the retrieval returned no receipt")
		}
		writeErr(w, err)
		return
	}
	out := service.Retrieved{Receipt: rc}
	if err != nil {
		out.Error = errs.From(err)
	}
	writeJSON(w, http.StatusOK, out)
}
