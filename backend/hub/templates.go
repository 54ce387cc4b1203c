package hub

import (
	"net/http"

	"github.com/ferrydesk/ferry/backend/service"
)

// Every client may list, read and render the prompt templates; saving and
// deleting them are the owner's (the user's prompts are theirs to change).

// Template is a prompt template with {{variables}} as the API shows it:
// a built-in one (read-only) or the user's.
type Template = service.Template

// DeletedTemplate answers DELETE /v1/templates/{name}.
type DeletedTemplate = service.DeletedTemplate

func (s *Server) handleListTemplates(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.ListTemplates(r.Context(), c.service(), service.ListTemplatesRequest{})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) handleGetTemplate(w http.ResponseWriter, r *http.Request, c Caller) {
	t, err := s.svc.GetTemplate(r.Context(), c.service(), service.TemplateRef{Name: r.PathValue("name")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

func (s *Server) handleSaveTemplate(w http.ResponseWriter, r *http.Request, c Caller) {
	var t Template
	if e := decodeJSON(w, r, defaultMaxBody, &t); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	out, err := s.svc.SaveTemplate(r.Context(), c.service(), t)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleDeleteTemplate(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.DeleteTemplate(r.Context(), c.service(), service.TemplateRef{Name: r.PathValue("name")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// RenderBody is the body of POST /v1/templates/{name}/render.
type RenderBody struct {
	Vars map[string]string `json:"vars,omitempty"`
}

func (s *Server) handleRenderTemplate(w http.ResponseWriter, r *http.Request, c Caller) {
	var body RenderBody
	if e := decodeJSON(w, r, defaultMaxBody, &body); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	out, err := s.svc.RenderTemplate(r.Context(), c.service(), service.RenderRequest{Name: r.PathValue("name"), Vars: body.Vars})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleExportSession(w http.ResponseWriter, r *http.Request, c Caller) {
	req := service.ExportRequest{ID: r.PathValue("id"), Format: r.URL.Query().Get("format")}
	if req.Format == "" {
		req.Format = service.FormatMarkdown
	}
	out, err := s.svc.ExportSession(r.Context(), c.service(), req)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleReportSession(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.ReportSession(r.Context(), c.service(), service.ReportRequest{ID: r.PathValue("id")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
