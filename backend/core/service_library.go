package core

import (
	"context"
	"slices"

	"github.com/ferrydesk/ferry/backend/service"
)

// ListTabs lists the tabs of the long-lived browser (none without one), or
// of the browser req.Browser names (jobs.Runner.ListTabsIn). An agent sees
// only the tabs its own jobs opened. Errors: errs.HubForbidden for an
// agent naming a browser; errs.HubUnauthorized for an unknown client; the
// browser's envelopes.
func (s *Service) ListTabs(ctx context.Context, c service.Caller, req service.ListTabsRequest) ([]service.Tab, error) {
	what := ""
	if req.Browser != nil {
		what = "choose the browser"
	}
	if err := admit(c, what, req); err != nil {
		return nil, err
	}
	if req.Browser != nil {
		return s.h.ListTabsIn(ctx, *req.Browser)
	}
	sc, err := s.scopeOf(ctx, c)
	if err != nil {
		return nil, err
	}
	tabs, err := s.h.ListTabs(ctx)
	if err != nil || sc.owner {
		return tabs, err
	}
	return slices.DeleteFunc(tabs, func(t service.Tab) bool { return !sc.tab(t.TargetID) }), nil
}

// OpenTab opens a site in a new background tab. Errors: errs.HubForbidden
// for an agent; errs.UnknownSite; the browser's envelopes.
func (s *Service) OpenTab(ctx context.Context, c service.Caller, req service.OpenTabRequest) (service.Tab, error) {
	if err := admit(c, "open tabs", req); err != nil {
		return service.Tab{}, err
	}
	return s.h.OpenTab(ctx, req)
}

// ListTemplates lists the built-in and the user's templates. Errors: as
// templates.Repo.List.
func (s *Service) ListTemplates(ctx context.Context, c service.Caller, req service.ListTemplatesRequest) ([]service.Template, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	return s.h.ListTemplates(ctx)
}

// GetTemplate returns one template. Errors: as templates.Repo.Get.
func (s *Service) GetTemplate(ctx context.Context, c service.Caller, req service.TemplateRef) (service.Template, error) {
	if err := admit(c, "", req); err != nil {
		return service.Template{}, err
	}
	return s.h.GetTemplate(ctx, req.Name)
}

// SaveTemplate saves one of the user's templates. Errors: errs.HubForbidden
// for an agent; as templates.Repo.Save.
func (s *Service) SaveTemplate(ctx context.Context, c service.Caller, req service.Template) (service.Template, error) {
	if err := admit(c, "change templates", req); err != nil {
		return service.Template{}, err
	}
	return s.h.SaveTemplate(ctx, req)
}

// DeleteTemplate deletes one of the user's templates. Errors:
// errs.HubForbidden for an agent; as templates.Repo.Delete.
func (s *Service) DeleteTemplate(ctx context.Context, c service.Caller, req service.TemplateRef) (service.DeletedTemplate, error) {
	if err := admit(c, "change templates", req); err != nil {
		return service.DeletedTemplate{}, err
	}
	if err := s.h.DeleteTemplate(ctx, req.Name); err != nil {
		return service.DeletedTemplate{}, err
	}
	return service.DeletedTemplate{Deleted: req.Name}, nil
}

// RenderTemplate fills a template with variables. Errors: as
// (*Core).RenderTemplate.
func (s *Service) RenderTemplate(ctx context.Context, c service.Caller, req service.RenderRequest) (service.Rendered, error) {
	if err := admit(c, "", req); err != nil {
		return service.Rendered{}, err
	}
	return s.h.RenderTemplate(ctx, req.Name, req.Vars)
}

// ListProjects lists the account's projects on req.Site (default chatgpt)
// in the browser req.Browser names, else the long-lived one
// (jobs.Runner.ListProjects). Errors: errs.HubForbidden for an agent; the
// runner's.
func (s *Service) ListProjects(ctx context.Context, c service.Caller, req service.ListProjectsRequest) ([]service.Project, error) {
	if err := admit(c, "list the projects", req); err != nil {
		return nil, err
	}
	return s.h.ListProjects(ctx, req)
}

// AddProjectSources adds files to a project's sources, or only resolves
// and checks them while req is not confirmed
// (jobs.Runner.AddProjectSources). Errors: errs.HubForbidden for an agent
// (a project's sources are the user's to change, by hand); req.Validate's;
// the runner's.
func (s *Service) AddProjectSources(ctx context.Context, c service.Caller, req service.AddSourcesRequest) (service.AddedSources, error) {
	if err := admit(c, "add files to a project's sources", req); err != nil {
		return service.AddedSources{}, err
	}
	return s.h.AddProjectSources(ctx, req)
}
