package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/doctor"
	"github.com/ferrydesk/ferry/backend/service"
)

// CheckSetup runs `ferry doctor`'s checks for this core's data directory
// (the store check reports the store this process holds). Errors:
// errs.HubForbidden for an agent.
func (s *Service) CheckSetup(ctx context.Context, c service.Caller, req service.CheckSetupRequest) (service.SetupReport, error) {
	if err := admit(c, "run the setup checks", req); err != nil {
		return service.SetupReport{}, err
	}
	return SetupReportOf(s.c.doctor(ctx)), nil
}

// SetupReportOf is the service's view of a doctor report (for a face that
// runs the checks without a core, when it did not open).
func SetupReportOf(r doctor.Report) service.SetupReport {
	out, err := mirror[service.SetupReport](r)
	if err != nil {
		panic(err) // the mirror test keeps the types in step
	}
	return out
}
