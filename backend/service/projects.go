package service

import (
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// ListProjectsRequest lists the account's projects on Site ("" is
// chatgpt), as its page lists them, in the browser Browser names (nil: the
// implementation's).
type ListProjectsRequest struct {
	Site    string       `json:"site,omitempty"`
	Browser *BrowserSpec `json:"browser,omitempty"`
}

// Validate checks the request (anything goes: the site is checked when
// the registry is at hand).
func (r ListProjectsRequest) Validate() error { return nil }

// Project is one of the account's projects on a site: what `ferry ask
// --project` takes (its name or its address).
type Project struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// AddSourcesRequest adds Files (absolute paths) to the sources of the
// account's project Project (its name, exactly or ignoring case, or its
// address) on Site ("" is chatgpt), in the browser Browser names. Only
// once Confirmed (the user agreed) is anything uploaded; before, the
// project is resolved and the files checked. TimeoutMs bounds the uploads.
type AddSourcesRequest struct {
	Site      string       `json:"site,omitempty"`
	Project   string       `json:"project"`
	Files     []string     `json:"files"`
	Confirmed bool         `json:"confirmed,omitempty"`
	TimeoutMs int64        `json:"timeoutMs"`
	Browser   *BrowserSpec `json:"browser,omitempty"`
}

// Validate checks the request before anything is opened. Errors:
// errs.BadInput for no project, no file or more than MaxFiles, a path that
// is not absolute, a timeout that is not positive, an invalid browser.
func (r AddSourcesRequest) Validate() error {
	for _, f := range r.Files {
		if !filepath.IsAbs(f) {
			return errs.New(errs.BadInput, "source path %q is not absolute", f).WithHint("give each file as an absolute path")
		}
	}
	switch {
	case strings.TrimSpace(r.Project) == "":
		return errs.New(errs.BadInput, "adding sources needs the project").WithHint("name it by its name or address (`ferry projects` lists them)")
	case len(r.Files) == 0 || len(r.Files) > MaxFiles:
		return errs.New(errs.BadInput, "adding sources takes 1 to %d files, got %d", MaxFiles, len(r.Files))
	case r.TimeoutMs <= 0:
		return errs.New(errs.BadInput, "the timeout must be positive, got %dms", r.TimeoutMs)
	case r.Browser != nil:
		return r.Browser.Validate()
	}
	return nil
}

// AddedSources answers an AddSourcesRequest: the project, whether the
// files were uploaded, and each file in the order asked, as checked.
type AddedSources struct {
	Project   Project      `json:"project"`
	Confirmed bool         `json:"confirmed"`
	Files     []SourceFile `json:"files"`
}

// SourceFile is one file of AddedSources (SiteName: the name the site
// shows, when another); once confirmed its Status is "added" (the
// project's list shows it), else "refused" or "unconfirmed" with Error.
type SourceFile struct {
	Attachment
	Status string         `json:"status,omitempty"`
	Error  *errs.Envelope `json:"error,omitempty"`
}
