package runs

import (
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// defaultMaxPromptBytes bounds a prompt with inlined files on a site whose
// own limit is not known.
const defaultMaxPromptBytes = 256 << 10

// WithFiles checks the files of a run on site st with the model alias
// before anything touches the browser, and returns the prompt to send and
// the files to attach: with inline, the files pasted into the prompt (and
// none to attach); otherwise the checked files (distinct names, sizes,
// sha256) and the prompt saying which were renamed. Errors:
// errs.CapabilityMissing for a site or model that takes no files;
// attach.Prepare's (errs.AttachmentRejected for the site's limits,
// errs.BadInput); attach.Bundle's (errs.PromptTooLarge).
func WithFiles(reg *site.Registry, st site.Site, model, prompt string, paths []string, inline bool) (string, []attach.File, error) {
	if len(paths) == 0 {
		return prompt, nil, nil
	}
	if inline {
		limit := defaultMaxPromptBytes
		if st.Uploads != nil && st.Uploads.MaxPromptBytes > 0 {
			limit = st.Uploads.MaxPromptBytes
		}
		out, err := attach.Bundle(prompt, commonDir(paths), paths, limit)
		return out, nil, err
	}
	if err := reg.Require(st.ID, model, site.FeatureFileUpload); err != nil {
		return "", nil, err
	}
	if st.Uploads == nil {
		return "", nil, errs.New(errs.CapabilityMissing, "%s takes no attachments in Ferry", st.Name).
			WithEvidence("site", st.ID).WithEvidence("feature", string(site.FeatureFileUpload)).
			WithHint("use a site that takes files, or paste text files into the prompt with --inline-files")
	}
	files, err := attach.Prepare(paths, attach.Limits{MaxFiles: st.Uploads.MaxFiles, MaxFileBytes: st.Uploads.MaxFileBytes}, st.Name)
	if err != nil {
		return "", nil, err
	}
	return attach.WithRenameNote(prompt, files), files, nil
}

// commonDir is the deepest directory that holds every path.
func commonDir(paths []string) string {
	dir := filepath.Dir(paths[0])
	for _, p := range paths[1:] {
		for dir != "/" && dir != "." && !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}
