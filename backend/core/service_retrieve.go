package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Retrieve brings the verified zips of conversation req.Conversation home
// (jobs.Runner.Retrieve). An agent retrieves only conversations of its own
// runs (or the user's, with the grant), into the artifacts directory
// (checkAgentRetrieve). Errors: req.Validate's; checkAgentRetrieve's; the
// runner's.
func (s *Service) Retrieve(ctx context.Context, c service.Caller, req service.RetrieveRequest) (*service.RetrieveReceipt, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	if !c.IsOwner() {
		if err := s.checkAgentRetrieve(ctx, c, req); err != nil {
			return nil, err
		}
	}
	return s.h.Retrieve(ctx, req)
}

// checkAgentRetrieve holds an agent's retrieval to what it may name: a
// conversation of its own runs (any, when the user granted the client
// theirs), and no folder, tab or browser of its choosing: its zips go to
// Ferry's artifacts directory, whose paths the receipt gives (a face may
// copy them where its user allowed). Errors: errs.HubForbidden;
// errs.HubUnauthorized for an unknown or revoked client.
func (s *Service) checkAgentRetrieve(ctx context.Context, c service.Caller, req service.RetrieveRequest) error {
	if req.OutDir != "" || req.TabID != "" || req.Browser != nil {
		return errs.New(errs.HubForbidden, "an agent's retrieval names no folder, tab or browser: its zips go to Ferry's artifacts directory").
			WithHint("leave the folder, tab and browser out and use the zips' paths in the receipt")
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return err
	}
	if sc.granted || sc.conversation(req.Conversation) {
		return nil
	}
	return grantHint(errs.New(errs.HubForbidden, "conversation %q is not one of this client's runs", service.Summarize(req.Conversation, 80)), c.Client)
}
