package jobs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// OpenArtifact opens artifact name of job jobID: a file the job's run
// recorded, inside the artifacts directory, with a provenance sidecar whose
// verdict is OK and whose SHA-256 matches the file's bytes. Only then is
// Verified true. Errors: errs.HubNotFound (no such job), errs.ArtifactNotFound
// (the run recorded no such artifact, or its file is gone),
// errs.ArtifactUnsafe (outside the artifacts directory, or a symlink).
func (h *Runner) OpenArtifact(ctx context.Context, jobID, name string) (service.ArtifactInfo, io.ReadCloser, error) {
	rec, err := h.jobs.Get(jobID)
	if err != nil {
		return service.ArtifactInfo{}, nil, err
	}
	notFound := errs.New(errs.ArtifactNotFound, "job %s has no artifact %q", jobID, clipText(name, 80))
	if rec.Session == "" {
		return service.ArtifactInfo{}, nil, notFound
	}
	s, err := h.session(ctx, rec.Session)
	if err != nil {
		return service.ArtifactInfo{}, nil, err
	}
	var found *job.Artifact
	for i := range s.Artifacts {
		a := &s.Artifacts[i]
		if a.Name == name || filepath.Base(a.Path) == name {
			found = a
			break
		}
	}
	if found == nil || found.Path == "" {
		return service.ArtifactInfo{}, nil, notFound
	}
	return openVerified(h.artifactsDir(), found.Path, name)
}

// openVerified opens path (which must lie in dir, not through a symlink)
// and checks it against its provenance sidecar (artifact.ReadProvenance).
func openVerified(dir, path, name string) (service.ArtifactInfo, io.ReadCloser, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return service.ArtifactInfo{}, nil, errs.Wrap(err, errs.ArtifactNotFound, "open artifacts directory %s: %v", dir, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return service.ArtifactInfo{}, nil, errs.Wrap(err, errs.ArtifactUnsafe, "resolve artifact %q: %v", name, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return service.ArtifactInfo{}, nil, errs.Wrap(err, errs.ArtifactNotFound, "artifact %q is gone: %v", name, err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == "." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == ".." || real != filepath.Clean(abs) {
		return service.ArtifactInfo{}, nil, errs.New(errs.ArtifactUnsafe, "artifact %q is not a plain file in the artifacts directory", name).
			WithEvidence("path", path)
	}
	if strings.HasPrefix(rel, artifact.QuarantineDir+string(filepath.Separator)) {
		return service.ArtifactInfo{}, nil, errs.New(errs.ArtifactUnsafe, "artifact %q is quarantined", name)
	}
	info := service.ArtifactInfo{Name: filepath.Base(real)}
	prov, err := artifact.ReadProvenance(real)
	f, ferr := os.Open(real)
	if ferr != nil {
		return service.ArtifactInfo{}, nil, errs.Wrap(ferr, errs.ArtifactNotFound, "open artifact %q: %v", name, ferr)
	}
	data, rerr := io.ReadAll(f)
	f.Close()
	if rerr != nil {
		return service.ArtifactInfo{}, nil, errs.Wrap(rerr, errs.ArtifactNotFound, "read artifact %q: %v", name, rerr)
	}
	sum := sha256.Sum256(data)
	info.Size, info.SHA256 = int64(len(data)), hex.EncodeToString(sum[:])
	info.Verified = err == nil && !prov.Quarantined && prov.Verdict != nil && prov.Verdict.OK &&
		strings.EqualFold(prov.SHA256, info.SHA256) && prov.Size == info.Size
	return info, io.NopCloser(bytes.NewReader(data)), nil
}
