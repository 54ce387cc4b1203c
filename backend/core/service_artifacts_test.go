package core

import (
	"bytes"
	"context"
	"image"
	pngenc "image/png"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestTheServiceNamesTheSidecarAsTheArtifactPackageWritesIt(t *testing.T) {
	if service.ArtifactSidecarSuffix != artifact.SidecarSuffix {
		t.Fatalf("service says a sidecar ends %q, the artifact package writes %q", service.ArtifactSidecarSuffix, artifact.SidecarSuffix)
	}
}

// TestTheLibraryTellsAnImagesRun: a generated image saved by a run is
// listed with its run's story as a zip is, and a lookup by path judges that
// one file alone.
func TestTheLibraryTellsAnImagesRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := Open(ctx, Options{DataDir: t.TempDir(), Role: "desktop"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	repo, err := c.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := repo.Create(ctx, &job.Session{Site: "chatgpt", Prompt: "draw a ferry at dawn", State: job.StateDone})
	if err != nil {
		t.Fatal(err)
	}
	var png bytes.Buffer
	if err := pngenc.Encode(&png, image.NewGray(image.Rect(0, 0, 30, 20))); err != nil {
		t.Fatal(err)
	}
	_, path, err := artifact.SaveImage(ctx, c.Paths().ArtifactsDir(), "ferry.png", &png, 0, artifact.ImageProvenance{Site: "chatgpt", Session: s.ID, Title: "Ferry"})
	if err != nil {
		t.Fatal(err)
	}
	svc, owner := newService(c, nil, nil), service.Owner(service.FaceDesktop)

	for _, req := range []service.ListArtifactsRequest{{}, {Path: path}} {
		list, err := svc.ListArtifacts(ctx, owner, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != 1 {
			t.Fatalf("ListArtifacts(%+v) lists %d items, want the image", req, len(list.Items))
		}
		it := list.Items[0]
		if it.Path != path || it.Kind != "image" || it.Status != record.ArtifactVerified || it.Width != 30 || it.Height != 20 || it.Title != "Ferry" {
			t.Errorf("ListArtifacts(%+v) item %+v", req, it)
		}
		if it.Run == nil || it.Run.ID != s.ID || it.Run.Prompt != "draw a ferry at dawn" {
			t.Errorf("ListArtifacts(%+v) tells the run %+v, want %s", req, it.Run, s.ID)
		}
	}
	list, err := svc.ListArtifacts(ctx, owner, service.ListArtifactsRequest{Path: path + artifact.SidecarSuffix})
	if err != nil || list.Items == nil || len(list.Items) != 0 {
		t.Errorf("ListArtifacts(the sidecar) = %+v, %v; want an empty list", list, err)
	}
}
