package core

import (
	"context"
	"errors"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

// CheckFiles checks req.Files for a run on req.Site with req.Model as the
// run itself would before it touches the browser (the capability registry,
// the site's upload definition and limits, attach's checks and renames),
// but gives every file's verdict instead of stopping at the first refusal.
// Nothing is attached or sent. Errors: errs.HubForbidden for an agent;
// errs.BadInput from Validate; errs.UnknownSite; errs.ConfigInvalid for a
// site override that does not parse.
func (s *Service) CheckFiles(ctx context.Context, c service.Caller, req service.FilesCheckRequest) (service.FilesCheck, error) {
	if err := admit(c, "check files to attach", req); err != nil {
		return service.FilesCheck{}, err
	}
	reg, err := s.c.sites()
	if err != nil {
		return service.FilesCheck{}, err
	}
	st, err := reg.Get(req.Site)
	if err != nil {
		return service.FilesCheck{}, err
	}
	return checkFiles(reg, st, req.Model, req.Files), nil
}

// checkFiles is CheckFiles' verdict on the files for site st (the same
// rules as runs.WithFiles, which runs refuse by).
func checkFiles(reg *site.Registry, st site.Site, model string, paths []string) service.FilesCheck {
	out := service.FilesCheck{Site: st.ID, SiteName: st.Name}
	lim := attach.Limits{}
	whole := reg.Require(st.ID, model, site.FeatureFileUpload)
	if whole == nil && st.Uploads == nil {
		whole = errs.New(errs.CapabilityMissing, "%s takes no attachments in Ferry", st.Name).
			WithEvidence("site", st.ID).WithEvidence("feature", string(site.FeatureFileUpload)).
			WithHint("send the files to a site that takes them (ChatGPT, Claude, Gemini)")
	}
	if st.Uploads != nil {
		lim = attach.Limits{MaxFiles: st.Uploads.MaxFiles, MaxFileBytes: st.Uploads.MaxFileBytes}
		out.MaxFiles, out.MaxFileBytes = lim.MaxFiles, lim.MaxFileBytes
	}
	checked, count := attach.Check(paths, lim, st.Name)
	if whole == nil {
		whole = count
	}
	out.Error = envelopeOf(whole)
	out.OK = out.Error == nil
	for _, f := range checked {
		fc := service.FileCheck{Attachment: service.Attachment{Path: f.Path, Name: f.Name, Bytes: f.Bytes, SHA256: f.SHA256, RenamedFrom: f.RenamedFrom},
			Error: envelopeOf(f.Err)}
		if fc.Error != nil {
			out.OK = false
		}
		out.Files = append(out.Files, fc)
	}
	return out
}

// envelopeOf is err as an envelope, nil for nil.
func envelopeOf(err error) *errs.Envelope {
	if err == nil {
		return nil
	}
	var e *errs.Envelope
	if errors.As(err, &e) {
		return e
	}
	return errs.From(err)
}
