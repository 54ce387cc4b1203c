package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/service"
)

// ListArtifacts lists every zip of the data directory's artifacts
// directory and its quarantine, newest first, each with the verdict its
// provenance sidecar records checked against the bytes on disk. Errors:
// errs.HubForbidden for an agent; errs.StoreIO for an unreadable
// directory.
func (s *Service) ListArtifacts(ctx context.Context, c service.Caller, req service.ListArtifactsRequest) (service.ArtifactList, error) {
	if err := admit(c, "list the artifacts", req); err != nil {
		return service.ArtifactList{}, err
	}
	dir := s.c.Paths().ArtifactsDir()
	items, err := artifact.Library(ctx, dir)
	return service.ArtifactList{Dir: dir, Items: artifactItemsOf(items)}, err
}

func artifactItemsOf(items []artifact.Item) []service.ArtifactItem {
	out, err := mirror[[]service.ArtifactItem](items)
	if err != nil {
		panic(err) // the mirror test keeps the types in step
	}
	if out == nil {
		out = []service.ArtifactItem{}
	}
	return out
}
