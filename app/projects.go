package app

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/service"
)

// projectsTimeout bounds a listing of the projects, which may start the
// browser and opens a tab of the site.
const projectsTimeout = time.Minute

// Projects lists the account's projects on site siteID as its page lists
// them (name and address: what RunSpec.Project takes), in a tab of the
// owner's browser opened for the listing and closed after; nothing is
// sent. Errors: unknown_site; capability_missing for a site without
// projects; login_required and the site's other readiness envelopes when
// its tab cannot list them; timeout after projectsTimeout.
func (r *Runs) Projects(siteID string) ([]service.Project, error) {
	out := []service.Project{}
	err := r.sh.withService(func(svc service.Service) error {
		ctx, cancel := context.WithTimeout(r.sh.calls, projectsTimeout)
		defer cancel()
		list, err := svc.ListProjects(ctx, desktopCaller, service.ListProjectsRequest{Site: siteID})
		if list != nil {
			out = list
		}
		return err
	})
	return out, err
}

// sourcesTimeout bounds the uploads of an AddProjectSources (as the CLI's
// `projects add-source`), and projectsTimeout more the tab and the project.
const sourcesTimeout = 10 * time.Minute

// AddProjectSources adds req.Files to the sources of the account's project
// req.Project on req.Site, as `ferry projects add-source` does: while
// req.Confirmed is false it only resolves the project and checks the files
// (what the window asks about, nothing uploaded); confirmed, it uploads
// them, each file proven by the project's list or returned with why not
// (refused in the site's words, unconfirmed). A zero req.TimeoutMs is
// sourcesTimeout. Errors: the Service's (bad_input for a bad file or an
// unknown or ambiguous project, the projects listed; capability_missing;
// login_required and the site's other envelopes), nothing uploaded.
func (r *Runs) AddProjectSources(req service.AddSourcesRequest) (service.AddedSources, error) {
	var out service.AddedSources
	if req.TimeoutMs == 0 {
		req.TimeoutMs = sourcesTimeout.Milliseconds()
	}
	err := r.sh.withService(func(svc service.Service) error {
		ctx, cancel := context.WithTimeout(r.sh.calls, time.Duration(req.TimeoutMs)*time.Millisecond+projectsTimeout)
		defer cancel()
		var err error
		out, err = svc.AddProjectSources(ctx, desktopCaller, req)
		return err
	})
	return out, err
}
