package chatgpt

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/place"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/sourcetab"
	"github.com/ferrydesk/ferry/backend/record"
)

// SourcesProject resolves the project whose sources files go to
// (runs.SourceAdder) as Place resolves a project, and names it also when
// ref is its address (the account's project of that id, when it lists
// one). Errors: Place's; the sidebar read's.
func (a *Adapter) SourcesProject(ctx context.Context, ref string) (record.Place, error) {
	p, err := a.Place(ctx, "project", ref)
	if err != nil || p.Name != "" {
		return p, err
	}
	projects, err := a.Projects(ctx)
	if err != nil {
		return record.Place{}, err
	}
	for _, q := range projects {
		if id := place.ProjectID(q.Address); id != "" && id == place.ProjectID(p.Address) {
			return q, nil
		}
	}
	return p, nil
}

// AddSources adds files to the sources of project (runs.SourceAdder) on
// the project page's Sources tab, with the site's upload definition
// (sourcetab.Tab.Add, whose results and errors it returns).
func (a *Adapter) AddSources(ctx context.Context, project record.Place, files []attach.File, patience time.Duration) ([]attach.File, []error, error) {
	if a.Site().Uploads == nil {
		return nil, nil, errs.New(errs.CapabilityMissing, "ChatGPT takes no files in Ferry (the settings removed its upload definition)")
	}
	t := sourcetab.Tab{Page: a.Page, Uploads: *a.Site().Uploads, Poll: a.Poll}
	return t.Add(ctx, project.Address, files, patience)
}
