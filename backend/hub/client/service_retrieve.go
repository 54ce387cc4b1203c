package client

import (
	"context"
	"net/http"

	"github.com/ferrydesk/ferry/backend/service"
)

// Retrieve runs a retrieval on the owner (its token only): in the owner's
// browser unless req names one. It returns the receipt, also on a failure
// after the run began, with the run's error. Errors: req.Validate's; the
// owner's envelopes (errs.HubForbidden for an agent's token).
func (s *Service) Retrieve(ctx context.Context, c service.Caller, req service.RetrieveRequest) (*service.RetrieveReceipt, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out service.Retrieved
	if err := s.c.do(ctx, http.MethodPost, "/v1/retrieve", req, &out); err != nil {
		return nil, err
	}
	if out.Error != nil {
		return out.Receipt, out.Error
	}
	return out.Receipt, nil
}
