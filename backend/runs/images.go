package runs

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/stream"
	"github.com/ferrydesk/ferry/backend/version"
)

// imageTool is the name of the tool that asks a site for images.
const imageTool = "image"

// ImagesHome is the Deliverable of an ask: the images its answer's turn
// generated (an adapter that is an artifact.ImageSource), each fetched
// through the tab (at most limit bytes), proven an image and saved with its
// provenance into dir, and recorded as the run's artifacts. A download the
// site refuses (a signed address that lapsed) is asked for once more; an
// image a killed run had already saved (its sidecar names the run and the
// file) is taken as it is. A turn without images delivers nothing, unless
// the run asked for the image tool (DeliverableMissing); a turn whose image
// tool ran and made none is ImageRefused with the site's words. An image
// that cannot be brought home is recorded as rejected, and the first such
// error fails the run once the others are saved.
func ImagesHome(dir string, limit int64) job.Deliverable {
	return func(ctx context.Context, s *job.Session, a provider.Adapter) (job.Delivery, error) {
		var d job.Delivery
		src, ok := a.(artifact.ImageSource)
		if !ok || s.ConversationID == "" {
			if s.ToolRequested == imageTool {
				return d, errs.New(errs.DeliverableMissing, "the answer holds no image Ferry can fetch (%s)", whyNoImages(ok)).WithEvidence("session", s.ID)
			}
			return d, nil
		}
		turn, err := src.TurnImages(ctx, s.ConversationID, s.MessageID)
		if err != nil {
			if s.ToolRequested == imageTool || ctx.Err() != nil {
				return d, err
			}
			d.Warnings = append(d.Warnings, fmt.Sprintf("the turn's images could not be looked for (%s): %s", errs.CodeOf(err), errs.From(err).Message))
			return d, nil
		}
		switch {
		case len(turn.Images) == 0 && turn.Called:
			return d, errs.New(errs.ImageRefused, "%s made no image: %s", a.Site().Name, stream.Clip(turn.Refusal, 300)).
				WithEvidence("site_message", stream.Clip(turn.Refusal, 300)).WithEvidence("conversation", s.ConversationID)
		case len(turn.Images) == 0 && s.ToolRequested == imageTool:
			return d, errs.New(errs.DeliverableMissing, "the answer holds no generated image, though the image tool was on").
				WithEvidence("conversation", s.ConversationID)
		}
		digest := sha256.Sum256([]byte(s.Prompt))
		prov := artifact.ImageProvenance{Site: s.Site, Session: s.ID, ConversationID: s.ConversationID,
			ConversationURL: src.ConversationAddress(s.ConversationID), PromptSHA256: hex.EncodeToString(digest[:])}
		var first error
		for _, img := range turn.Images {
			art, err := imageHome(ctx, src, img, dir, limit, prov)
			d.Artifacts = append(d.Artifacts, art)
			if err != nil && first == nil {
				first = err
			}
		}
		return d, first
	}
}

// imagesDir is where an ask's images are saved (made by the first save):
// the artifacts' output directory of the settings, else the data
// directory's artifacts/.
func (p *Pipeline) imagesDir() string {
	return cmp.Or(p.d.Settings().Artifacts.OutputDir, p.d.Paths.ArtifactsDir())
}

func whyNoImages(source bool) string {
	if !source {
		return "the site has no image download"
	}
	return "the answer came without a conversation id"
}

// imageHome brings one image home, or finds it already saved by this run.
func imageHome(ctx context.Context, src artifact.ImageSource, img artifact.GeneratedImage, dir string, limit int64, prov artifact.ImageProvenance) (job.Artifact, error) {
	art := job.Artifact{Name: img.FileID, Kind: record.ArtifactImage, SiteFile: img.FileID, Verdict: "rejected"}
	if p, path, ok := artifact.FindSavedImage(dir, prov.Session, img.FileID); ok {
		return imageArtifact(p, path), nil
	}
	prov.MessageID, prov.FileID, prov.Title = img.MessageID, img.FileID, img.Title
	var buf bytes.Buffer
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		buf.Reset()
		if _, err = src.FetchImage(ctx, img, &buf, limit); err == nil || ctx.Err() != nil ||
			!(errs.Has(err, errs.ArtifactForbidden) || errs.Has(err, errs.ArtifactExpired)) {
			break
		}
	}
	if err != nil {
		art.Reason = string(errs.CodeOf(err)) + ": " + errs.From(err).Message
		return art, err
	}
	name := img.Title
	if name == "" {
		name = img.FileID
	}
	p, path, err := artifact.SaveImage(ctx, dir, name, &buf, limit, prov, artifact.WithFerryVersion(version.Version))
	if err != nil {
		art.Reason = string(errs.CodeOf(err)) + ": " + errs.From(err).Message
		return art, errs.From(err).WithEvidence("file", img.FileID)
	}
	return imageArtifact(p, path), nil
}

func imageArtifact(p *artifact.ImageProvenance, path string) job.Artifact {
	return job.Artifact{Name: filepath.Base(path), Path: path, SHA256: p.SHA256, Bytes: p.Size, Verdict: "verified",
		Kind: record.ArtifactImage, MIME: p.MIME, Width: p.Width, Height: p.Height, SiteFile: p.FileID}
}
