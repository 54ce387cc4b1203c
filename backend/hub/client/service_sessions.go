package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

// ListSessions lists runs on the owner. Errors: req.Validate's; the
// owner's (errs.BadInput for an unknown state).
func (s *Service) ListSessions(ctx context.Context, c service.Caller, req service.SessionQuery) ([]service.SessionSummary, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return s.c.ListSessions(ctx, req)
}

// SearchSessions searches runs on the owner. Errors: as ListSessions.
func (s *Service) SearchSessions(ctx context.Context, c service.Caller, req service.SearchRequest) ([]service.SessionSummary, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return s.c.SearchSessions(ctx, req.Query, req.Limit)
}

// ShowSession returns a run with its journal. Errors: errs.SessionNotFound,
// errs.SessionAmbiguous.
func (s *Service) ShowSession(ctx context.Context, c service.Caller, req service.SessionRef) (service.Session, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Session{}, err
	}
	return s.c.ShowSession(ctx, req.ID)
}

// ExportSession renders a run on the owner. Errors: as ShowSession.
func (s *Service) ExportSession(ctx context.Context, c service.Caller, req service.ExportRequest) (service.Export, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Export{}, err
	}
	return s.c.ExportSession(ctx, req.ID, req.Format)
}

// ReportSession builds the failure report of a run on the owner. Errors:
// as ShowSession; errs.BadInput for a run that did not fail.
func (s *Service) ReportSession(ctx context.Context, c service.Caller, req service.ReportRequest) (service.Report, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Report{}, err
	}
	return s.c.ReportSession(ctx, req.ID)
}

// PollSession checks a run once (owner only).
func (s *Service) PollSession(ctx context.Context, c service.Caller, req service.PollRequest) (service.PollResult, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.PollResult{}, err
	}
	return s.c.PollSession(ctx, hub.SessionCheck{Session: req.Session, Browser: req.Browser, BrowserURL: req.BrowserURL, TimeoutMs: req.TimeoutMs})
}

// ReattachSession resumes a run as a job (owner only).
func (s *Service) ReattachSession(ctx context.Context, c service.Caller, req service.ReattachRequest) (service.ReattachResult, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.ReattachResult{}, err
	}
	return s.c.ReattachSession(ctx, hub.SessionCheck{Session: req.Session, Browser: req.Browser, BrowserURL: req.BrowserURL, TimeoutMs: req.TimeoutMs})
}

// DoctorSessions checks the tabs of active and stale runs (owner only).
func (s *Service) DoctorSessions(ctx context.Context, c service.Caller, req service.DoctorRequest) ([]service.DoctorReport, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return nil, err
	}
	res, err := s.c.DoctorSessions(ctx, hub.SessionCheck{Browser: req.Browser, BrowserURL: req.BrowserURL, Recover: req.Recover})
	return res.Sessions, err
}

// ListTabs lists the tabs of the owner's browser, or of the browser
// req.Browser names.
func (s *Service) ListTabs(ctx context.Context, c service.Caller, req service.ListTabsRequest) ([]service.Tab, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if req.Browser != nil {
		return s.c.ListTabsIn(ctx, *req.Browser)
	}
	return s.c.ListTabs(ctx)
}

// ListProjects lists the account's projects on a site through the owner
// (owner only), in the browser req.Browser names.
func (s *Service) ListProjects(ctx context.Context, c service.Caller, req service.ListProjectsRequest) ([]service.Project, error) {
	ctx = actingAs(ctx, c)
	q := url.Values{}
	if req.Browser != nil {
		q = hub.TabsBrowserQuery(*req.Browser)
	}
	if req.Site != "" {
		q.Set("site", req.Site)
	}
	var out []service.Project
	return out, s.c.do(ctx, http.MethodGet, "/v1/projects"+query(q), nil, &out)
}

// AddProjectSources adds files to a project's sources through the owner
// (owner only), in the browser req.Browser names; the files are read
// where the owner runs. Errors: req.Validate's; the owner's envelopes.
func (s *Service) AddProjectSources(ctx context.Context, c service.Caller, req service.AddSourcesRequest) (service.AddedSources, error) {
	ctx = actingAs(ctx, c)
	var out service.AddedSources
	if err := req.Validate(); err != nil {
		return out, err
	}
	err := s.c.do(ctx, http.MethodPost, "/v1/projects/sources", req, &out)
	return out, err
}

// OpenTab opens a site in a new tab of the owner's browser (owner only).
func (s *Service) OpenTab(ctx context.Context, c service.Caller, req service.OpenTabRequest) (service.Tab, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Tab{}, err
	}
	return s.c.OpenTab(ctx, req)
}

// ListTemplates lists the owner's templates.
func (s *Service) ListTemplates(ctx context.Context, c service.Caller, req service.ListTemplatesRequest) ([]service.Template, error) {
	ctx = actingAs(ctx, c)
	return s.c.Templates(ctx)
}

// GetTemplate returns one template. Errors: errs.TemplateNotFound.
func (s *Service) GetTemplate(ctx context.Context, c service.Caller, req service.TemplateRef) (service.Template, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Template{}, err
	}
	return s.c.Template(ctx, req.Name)
}

// SaveTemplate saves one of the user's templates (owner only).
func (s *Service) SaveTemplate(ctx context.Context, c service.Caller, req service.Template) (service.Template, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Template{}, err
	}
	return s.c.SaveTemplate(ctx, req)
}

// DeleteTemplate deletes one of the user's templates (owner only).
func (s *Service) DeleteTemplate(ctx context.Context, c service.Caller, req service.TemplateRef) (service.DeletedTemplate, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.DeletedTemplate{}, err
	}
	if err := s.c.DeleteTemplate(ctx, req.Name); err != nil {
		return service.DeletedTemplate{}, err
	}
	return service.DeletedTemplate{Deleted: req.Name}, nil
}

// RenderTemplate fills a template on the owner.
func (s *Service) RenderTemplate(ctx context.Context, c service.Caller, req service.RenderRequest) (service.Rendered, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.Rendered{}, err
	}
	return s.c.RenderTemplate(ctx, req.Name, req.Vars)
}

// ListClients lists the paired clients (owner only).
func (s *Service) ListClients(ctx context.Context, c service.Caller, req service.ListClientsRequest) ([]service.ClientInfo, error) {
	ctx = actingAs(ctx, c)
	return s.c.Clients(ctx)
}

// RevokeClient revokes a client (owner only).
func (s *Service) RevokeClient(ctx context.Context, c service.Caller, req service.ClientRef) (service.ClientInfo, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.ClientInfo{}, err
	}
	return s.c.Revoke(ctx, req.ID)
}

// SetAutoApprove sets whether a client's jobs skip the approval (owner
// only).
func (s *Service) SetAutoApprove(ctx context.Context, c service.Caller, req service.AutoApproveRequest) (service.ClientInfo, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.ClientInfo{}, err
	}
	return s.c.SetAutoApprove(ctx, req.ID, req.AutoApprove)
}

// GrantClient sets whether a client's jobs may name the user's existing
// tabs, conversations and runs (owner only).
func (s *Service) GrantClient(ctx context.Context, c service.Caller, req service.GrantRequest) (service.ClientInfo, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.ClientInfo{}, err
	}
	return s.c.GrantExisting(ctx, req.ID, req.ExistingConversations)
}

// SetFileRoots replaces the folders under which a client's jobs may name
// files to attach (owner only).
func (s *Service) SetFileRoots(ctx context.Context, c service.Caller, req service.FileRootsRequest) (service.ClientInfo, error) {
	ctx = actingAs(ctx, c)
	if err := req.Validate(); err != nil {
		return service.ClientInfo{}, err
	}
	return s.c.SetFileRoots(ctx, req.ID, req.Roots)
}

// NewPairingCode draws a pairing code on the owner's hub (owner only).
func (s *Service) NewPairingCode(ctx context.Context, c service.Caller, req service.PairingRequest) (service.PairingCode, error) {
	ctx = actingAs(ctx, c)
	return s.c.NewPairingCode(ctx)
}
