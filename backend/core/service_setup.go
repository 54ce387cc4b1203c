package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/service"
)

// CheckSetup runs `ferry doctor`'s checks for this core's data directory
// (the store check reports the store this process holds). Errors:
// errs.HubForbidden for an agent.
func (s *Service) CheckSetup(ctx context.Context, c service.Caller, req service.CheckSetupRequest) (service.SetupReport, error) {
	if err := admit(c, "run the setup checks", req); err != nil {
		return service.SetupReport{}, err
	}
	return s.c.doctor(ctx), nil
}
