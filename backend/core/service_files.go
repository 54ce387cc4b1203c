package core

import (
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/clients"
	"github.com/ferrydesk/ferry/backend/confine"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// confineFiles checks that every file an agent's job names lies under one
// of the roots the user allowed its client (confine.Within: after symbolic
// links are resolved too, so a link cannot lead outside), and returns the files as the
// approval shows them (names, sizes). Errors: errs.HubForbidden naming the
// first file outside the roots (or saying the client has none);
// attach.Prepare's local checks (errs.BadInput).
func confineFiles(rec clients.Record, files []string) ([]service.Attachment, error) {
	if len(files) == 0 {
		return nil, nil
	}
	if len(rec.FileRoots) == 0 {
		return nil, errs.New(errs.HubForbidden, "client %q may not attach files: the user allowed it no folder", rec.Name).
			WithHint("ask the user to allow this client (%s) a folder in Ferry's Settings → Agents → Add folder…", rec.ID)
	}
	for _, f := range files {
		if _, err := filepath.EvalSymlinks(f); err != nil {
			return nil, errs.Wrap(err, errs.BadInput, "cannot read the file to attach %s: %v", f, err).WithEvidence("file", f)
		}
		if !confine.Within(f, rec.FileRoots) {
			return nil, errs.New(errs.HubForbidden, "file %s is outside the folders the user allowed client %q", f, rec.Name).
				WithEvidence("file", f).WithEvidence("roots", strings.Join(rec.FileRoots, ", ")).
				WithHint("attach files from %s, or ask the user to allow the folder for this client (%s) in Ferry's Settings → Agents", strings.Join(rec.FileRoots, ", "), rec.ID)
		}
	}
	checked, err := attach.Prepare(files, attach.Limits{}, "")
	if err != nil {
		return nil, err
	}
	out := make([]service.Attachment, len(checked))
	for i, f := range checked {
		out[i] = service.Attachment{Path: f.Path, Name: f.Name, Bytes: f.Bytes, SHA256: f.SHA256, RenamedFrom: f.RenamedFrom}
	}
	return out, nil
}
