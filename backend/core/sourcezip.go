package core

import (
	"context"
	"os"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/service"
)

// Sources sent as a zip (`--source-as zip`): the tracked, clean files
// under the job's source paths at HEAD, archived by git into a private
// temporary directory when the job runs, attached like any other file
// (the site's limits apply, and the run records its name, size and
// sha256), and removed when the run ends.

// checkSources checks a job's repository and source paths when it is
// submitted: only the user may name them, and sources sent as a zip must
// be tracked and clean now (they are checked again when the zip is made).
// Errors: errs.BadInput for an agent naming a repository, and
// prompt.CleanSources' (errs.BadInput naming the changed files).
func checkSources(ctx context.Context, spec hub.JobSpec) error {
	if spec.RepoRoot == "" && len(spec.SourcePaths) == 0 {
		return nil
	}
	if !trustedRequester(spec.RequestedBy) {
		return errs.New(errs.BadInput, "repoRoot and sourcePaths are for the owner only").
			WithHint("attach the files from an allowed folder with \"files\" instead")
	}
	if spec.SourceAs != service.SourceAsZip {
		return nil
	}
	_, err := prompt.CleanSources(ctx, spec.RepoRoot, spec.SourcePaths)
	return err
}

// sourceZip makes the zip of spec's sources when it asks for one and
// returns its path and the function that removes it ("" and a no-op when
// the job sends no zip). Errors: prompt.CleanSources' (errs.BadInput
// naming the changed files); errs.Internal when no temporary directory can
// be made; the archive's.
func sourceZip(ctx context.Context, spec hub.JobSpec) (string, func(), error) {
	none := func() {}
	if spec.SourceAs != service.SourceAsZip {
		return "", none, nil
	}
	tree, err := prompt.CleanSources(ctx, spec.RepoRoot, spec.SourcePaths)
	if err != nil {
		return "", none, err
	}
	dir, err := os.MkdirTemp("", "ferry-sources-")
	if err != nil {
		return "", none, errs.Wrap(err, errs.Internal, "make a directory for the sources' zip: %v", err)
	}
	remove := func() { _ = os.RemoveAll(dir) }
	path, err := tree.Zip(ctx, dir)
	if err != nil {
		remove()
		return "", none, err
	}
	return path, remove, nil
}
