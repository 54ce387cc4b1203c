package app

import (
	"context"
	"path/filepath"

	"github.com/ferrydesk/ferry/app/internal/desktop"
	"github.com/ferrydesk/ferry/backend/service"
)

// Attachments is the frontend's API for the files a prompt carries: the
// native picker, and the Service's check of the files for a site before
// the send (the files themselves go with the run, RunSpec.Files). A file
// dropped on the window arrives through the Wails runtime's file drop
// (options.DragAndDrop.EnableFileDrop), in the frontend.
type Attachments struct {
	sh   *shell
	pick desktop.FilePicker
}

// Pick shows the open dialog ("Attach files") and returns the chosen files'
// absolute paths, none when the user cancelled. Nothing is read yet: Check
// does that. Errors: internal when the window has not started or the
// dialog could not be shown.
func (a *Attachments) Pick() ([]string, error) {
	paths, err := a.pick.OpenFiles("Attach files")
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, p := range paths {
		if p != "" {
			out = append(out, filepath.Clean(p))
		}
	}
	return out, nil
}

// Check asks the Service whether req.Files could go to req.Site with
// req.Model: each file's name as sent, size and sha256, or its refusal in
// the site's words, and the refusal of the files as a whole (too many, a
// site that takes none). Nothing is attached or sent. Errors: bad_input
// for no site, no file or a relative path; unknown_site; config_invalid.
func (a *Attachments) Check(req service.FilesCheckRequest) (service.FilesCheck, error) {
	var out service.FilesCheck
	err := a.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.CheckFiles(context.Background(), desktopCaller, req)
		return err
	})
	return out, err
}
