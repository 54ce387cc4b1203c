package service

import (
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// FilesCheckRequest asks whether Files could go with a prompt to Site (with
// the model alias Model, "" for the site's own): the checks a run makes
// before it touches the browser, with nothing attached or sent.
type FilesCheckRequest struct {
	Site  string   `json:"site"`
	Model string   `json:"model,omitempty"`
	Files []string `json:"files"`
}

// Validate checks the request. Errors: errs.BadInput for no site, no file,
// more than MaxFiles, or a path that is not absolute.
func (r FilesCheckRequest) Validate() error {
	if strings.TrimSpace(r.Site) == "" {
		return errs.New(errs.BadInput, "checking files needs a site").WithHint("name the site the files would go to, e.g. chatgpt")
	}
	if len(r.Files) == 0 {
		return errs.New(errs.BadInput, "no file to check")
	}
	if len(r.Files) > MaxFiles {
		return errs.New(errs.BadInput, "%d files are more than %d", len(r.Files), MaxFiles).WithHint("attach fewer files, or a zip of them")
	}
	for _, f := range r.Files {
		if !filepath.IsAbs(f) {
			return errs.New(errs.BadInput, "attachment path %q is not absolute", f).WithHint("give each file as an absolute path")
		}
	}
	return nil
}

// FilesCheck is the verdict of a FilesCheckRequest. OK says a run would
// attach every file (as Files names them); otherwise Error refuses the set
// as a whole (too many files, a site or model that takes none) or a file's
// own Error refuses it.
type FilesCheck struct {
	OK bool `json:"ok"`
	// Site and SiteName are the site checked against.
	Site     string `json:"site"`
	SiteName string `json:"siteName"`
	// MaxFiles and MaxFileBytes are the site's limits (0: none known).
	MaxFiles     int   `json:"maxFiles,omitempty"`
	MaxFileBytes int64 `json:"maxFileBytes,omitempty"`
	// Files are the files in the order asked: each with the name it would
	// be sent under, its size and sha256 (when it could be read), and its
	// refusal.
	Files []FileCheck `json:"files"`
	// Error is the refusal of the files as a whole, nil when there is none.
	Error *errs.Envelope `json:"error,omitempty"`
}

// FileCheck is one file of a FilesCheck.
type FileCheck struct {
	Attachment
	// Error is the file's refusal (errs.AttachmentRejected in the site's
	// words, errs.BadInput for a file that cannot be read); nil when the
	// file would be sent.
	Error *errs.Envelope `json:"error,omitempty"`
}
