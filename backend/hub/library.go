package hub

import (
	"context"
	"net/http"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// SessionExporter is implemented by a Backend that renders runs for
// sharing (GET /v1/sessions/{id}/export?format=md|json).
type SessionExporter interface {
	ExportSession(ctx context.Context, id, format string) (service.Export, error)
}

// TemplateRenderer is implemented by a Backend that fills templates
// (POST /v1/templates/{name}/render).
type TemplateRenderer interface {
	RenderTemplate(ctx context.Context, name string, vars map[string]string) (service.Rendered, error)
}

// RenderBody is the body of POST /v1/templates/{name}/render.
type RenderBody struct {
	Vars map[string]string `json:"vars,omitempty"`
}

func (s *Server) handleExportSession(w http.ResponseWriter, r *http.Request, c Caller) {
	req := service.ExportRequest{ID: r.PathValue("id"), Format: r.URL.Query().Get("format")}
	if req.Format == "" {
		req.Format = service.FormatMarkdown
	}
	if err := req.Validate(); err != nil {
		writeErr(w, err)
		return
	}
	ex, ok := s.backend.(SessionExporter)
	if !ok {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "this Ferry owner cannot export runs"))
		return
	}
	out, err := ex.ExportSession(r.Context(), req.ID, req.Format)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleRenderTemplate(w http.ResponseWriter, r *http.Request, c Caller) {
	var body RenderBody
	if e := decodeJSON(w, r, defaultMaxBody, &body); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	tr, ok := s.backend.(TemplateRenderer)
	if !ok {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "this Ferry owner keeps no templates"))
		return
	}
	out, err := tr.RenderTemplate(r.Context(), r.PathValue("name"), body.Vars)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
