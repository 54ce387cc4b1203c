package jobs

import (
	"cmp"
	"context"
	"path/filepath"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// ListProjects lists the account's projects on req.Site (default chatgpt)
// in a tab of the site opened for it and closed after, in the browser
// req.Browser names (else the long-lived one, else Ferry's own, running).
// Errors: errs.UnknownSite; errs.CapabilityMissing for a site without
// projects; the browser's, the tab's and the site's envelopes
// (LoginRequired for a logged-out site).
func (h *Runner) ListProjects(ctx context.Context, req service.ListProjectsRequest) ([]service.Project, error) {
	reg, st, err := h.siteOf(req.Site)
	if err != nil {
		return nil, err
	}
	a, done, err := h.readyAdapter(ctx, reg, st, req.Browser)
	if err != nil {
		return nil, err
	}
	defer done()
	lister, ok := a.(runs.ProjectLister)
	if !ok {
		return nil, errs.New(errs.CapabilityMissing, "%s has no projects Ferry knows of", st.Name).WithEvidence("site", st.ID)
	}
	places, err := lister.Projects(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]service.Project, 0, len(places))
	for _, p := range places {
		out = append(out, service.Project{Name: p.Name, Address: p.Address})
	}
	return out, nil
}

// AddProjectSources adds req.Files to the sources of project req.Project
// on req.Site (default chatgpt), in a tab of the site opened for it and
// closed after, in the browser req.Browser names (as ListProjects). The
// files are checked before the browser is touched (readable regular
// files within the site's size limit, no two of one name); then the
// project is resolved, and only a confirmed request uploads: through the
// project page's dialog, each file proven by the project's list, waiting
// at most req.TimeoutMs. A file not added is in the answer with its error
// (errs.AttachmentRejected in the site's words, errs.AttachmentUnconfirmed).
// Errors, with nothing uploaded: errs.UnknownSite; errs.BadInput for a bad
// file, an unknown or ambiguous project (the projects listed);
// errs.CapabilityMissing for a site without project sources; the
// adapter's for a dialog that never opened; the browser's, the tab's and
// the site's envelopes.
func (h *Runner) AddProjectSources(ctx context.Context, req service.AddSourcesRequest) (service.AddedSources, error) {
	var none service.AddedSources
	reg, st, err := h.siteOf(req.Site)
	if err != nil {
		return none, err
	}
	files, err := sourceFiles(st, req.Files)
	if err != nil {
		return none, err
	}
	a, done, err := h.readyAdapter(ctx, reg, st, req.Browser)
	if err != nil {
		return none, err
	}
	defer done()
	adder, ok := a.(runs.SourceAdder)
	if !ok {
		return none, errs.New(errs.CapabilityMissing, "%s has no project sources Ferry knows of; nothing was uploaded", st.Name).WithEvidence("site", st.ID)
	}
	place, err := adder.SourcesProject(ctx, req.Project)
	if err != nil {
		return none, err
	}
	out := service.AddedSources{Project: service.Project{Name: place.Name, Address: place.Address}, Confirmed: req.Confirmed}
	if !req.Confirmed {
		for _, f := range files {
			out.Files = append(out.Files, service.SourceFile{Attachment: f})
		}
		return out, nil
	}
	got, verdicts, err := adder.AddSources(ctx, place, files, time.Duration(req.TimeoutMs)*time.Millisecond)
	if err != nil {
		return none, err
	}
	for i, f := range got {
		sf := service.SourceFile{Attachment: f, Status: "added"}
		if verdicts[i] != nil {
			sf.Error, sf.Status = errs.From(verdicts[i]), "unconfirmed"
			if sf.Error.Code == errs.AttachmentRejected {
				sf.Status = "refused"
			}
		}
		out.Files = append(out.Files, sf)
	}
	return out, nil
}

// sourceFiles checks paths as files for the sources of a project on st:
// attach.Prepare's checks with the site's size limit, and no two files of
// one base name (a project's list tells its sources apart by name).
func sourceFiles(st site.Site, paths []string) ([]attach.File, error) {
	if st.Uploads == nil {
		return nil, errs.New(errs.CapabilityMissing, "%s takes no files in Ferry; nothing was uploaded", st.Name).WithEvidence("site", st.ID)
	}
	files, err := attach.Prepare(paths, attach.Limits{MaxFileBytes: st.Uploads.MaxFileBytes}, st.Name)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Renamed() {
			return nil, errs.New(errs.BadInput, "two files are named %s; a project tells its sources apart by name, so nothing was uploaded", filepath.Base(f.Path)).
				WithEvidence("file", f.Path).WithHint("rename one of them, or add them to different projects")
		}
	}
	return files, nil
}

// siteOf is the registry in force and site id's entry ("" is chatgpt).
// Errors: the registry's; errs.UnknownSite.
func (h *Runner) siteOf(id string) (*site.Registry, site.Site, error) {
	reg, err := h.pipe.Sites()
	if err != nil {
		return nil, site.Site{}, err
	}
	st, err := reg.Get(cmp.Or(id, "chatgpt"))
	return reg, st, err
}

// readyAdapter opens a tab of st in the browser spec names (nil: Ferry's
// own) and returns its adapter, ready; done closes the tab and lets the
// browser go. Errors: the browser's, the tab's and the adapter's (Ready's:
// LoginRequired, an interstitial).
func (h *Runner) readyAdapter(ctx context.Context, reg *site.Registry, st site.Site, spec *service.BrowserSpec) (provider.Adapter, func(), error) {
	bs := service.BrowserSpec{Mode: service.BrowserOwn}
	if spec != nil {
		bs = *spec
	}
	b, release, err := h.specBrowser(ctx, bs)
	if err != nil {
		return nil, nil, err
	}
	page, st, err := h.d.Leases.OpenSite(ctx, tabs.Run{}, b, reg, st.ID)
	if err != nil {
		release()
		return nil, nil, err
	}
	done := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = page.Close(cctx)
		release()
	}
	a, err := provider.New(provider.Env{Page: page, Site: st, Sites: reg})
	if err == nil {
		err = a.Ready(ctx)
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	return a, done, nil
}
