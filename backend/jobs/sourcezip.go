package jobs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/service"
)

// Sources sent as a zip (`--source-as zip`): the tracked, clean files
// under the job's source paths at HEAD, archived by git into a private
// temporary directory when the job runs (prompt.ZipSources), attached like
// any other file (the site's limits apply, and the run records its name,
// size and sha256), and removed when the run ends. What core decides is
// whose job may name sources, and when they are checked and zipped.

// checkSources checks a job's repository and source paths when it is
// submitted: only the user may name them, and sources sent as a zip must
// be tracked and clean now (they are checked again when the zip is made).
// Errors: errs.BadInput for an agent naming a repository, and
// prompt.CleanSources' (errs.BadInput naming the changed files).
func checkSources(ctx context.Context, spec service.JobRequest) error {
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

// sourceZip makes the zip of spec's sources when it asks for one (see
// prompt.ZipSources) and returns its path and the function that removes it
// ("" and a no-op when the job sends no zip). Errors: prompt.ZipSources'.
func sourceZip(ctx context.Context, spec service.JobRequest) (string, func(), error) {
	if spec.SourceAs != service.SourceAsZip {
		return "", func() {}, nil
	}
	return prompt.ZipSources(ctx, spec.RepoRoot, spec.SourcePaths)
}
