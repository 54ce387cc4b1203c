package core

import (
	"context"
	"io"

	"github.com/ferrydesk/ferry/backend/service"
)

// OpenArtifact opens artifact name of job jobID, which c may see. Errors:
// errs.HubNotFound for a job c may not see; as (*jobs.Runner).OpenArtifact.
func (s *Service) OpenArtifact(ctx context.Context, c service.Caller, jobID, name string) (service.ArtifactInfo, io.ReadCloser, error) {
	if err := checkCaller(c); err != nil {
		return service.ArtifactInfo{}, nil, err
	}
	if _, err := s.visibleJob(ctx, c, jobID); err != nil {
		return service.ArtifactInfo{}, nil, err
	}
	return s.h.OpenArtifact(ctx, jobID, name)
}

// BrowserEndpoint is the DevTools address of the owner's browser (the
// owner's only: it gives full control of the user's browser). Errors:
// errs.HubForbidden for an agent; as (*jobs.Runner).BrowserEndpoint.
func (s *Service) BrowserEndpoint(ctx context.Context, c service.Caller) (service.BrowserInfo, error) {
	if err := checkCaller(c); err != nil {
		return service.BrowserInfo{}, err
	}
	if err := ownerOnly(c, "reach the owner's browser"); err != nil {
		return service.BrowserInfo{}, err
	}
	return s.h.BrowserEndpoint(ctx)
}

// Events delivers the owner's events. Errors: as (*jobs.Runner).Events.
func (s *Service) Events(ctx context.Context) (<-chan service.Event, error) { return s.h.Events(ctx) }
