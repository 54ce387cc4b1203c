package core

import (
	"context"
	"io"

	"github.com/ferrydesk/ferry/backend/hub"
)

// What the hub asks of the Service it serves beyond service.Service: the
// artifacts of jobs, the owner's browser and the jobs awaiting approval
// after a restart. The hub checks the caller before it asks.

var (
	_ hub.ArtifactOpener    = (*Service)(nil)
	_ hub.BrowserEndpointer = (*Service)(nil)
	_ hub.PendingLister     = (*Service)(nil)
)

// OpenArtifact opens a job's verified artifact. Errors: as
// (*HubBackend).OpenArtifact.
func (s *Service) OpenArtifact(ctx context.Context, jobID, name string) (hub.ArtifactInfo, io.ReadCloser, error) {
	return s.h.OpenArtifact(ctx, jobID, name)
}

// BrowserEndpoint is the DevTools address of the owner's browser. Errors:
// as (*HubBackend).BrowserEndpoint.
func (s *Service) BrowserEndpoint(ctx context.Context) (hub.BrowserInfo, error) {
	return s.h.BrowserEndpoint(ctx)
}

// PendingApprovals lists the stored jobs awaiting approval. Errors: as
// (*HubBackend).PendingApprovals.
func (s *Service) PendingApprovals(ctx context.Context) ([]hub.PendingJob, error) {
	return s.h.PendingApprovals(ctx)
}
