package core

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestTheServiceNamesTheSidecarAsTheArtifactPackageWritesIt(t *testing.T) {
	if service.ArtifactSidecarSuffix != artifact.SidecarSuffix {
		t.Fatalf("service says a sidecar ends %q, the artifact package writes %q", service.ArtifactSidecarSuffix, artifact.SidecarSuffix)
	}
}
