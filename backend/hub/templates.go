package hub

import (
	"context"
	"net/http"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Template is a prompt template with {{variables}} as the API shows it:
// a built-in one (read-only) or the user's.
type Template = service.Template

// TemplateBackend is implemented by a Backend that keeps prompt templates.
// Every client may list and read them; saving and deleting are the
// owner's (the user's prompts are theirs to change).
type TemplateBackend interface {
	ListTemplates(ctx context.Context) ([]Template, error)
	GetTemplate(ctx context.Context, name string) (Template, error)
	SaveTemplate(ctx context.Context, t Template) (Template, error)
	DeleteTemplate(ctx context.Context, name string) error
}

// DeletedTemplate answers DELETE /v1/templates/{name}.
type DeletedTemplate = service.DeletedTemplate

func (s *Server) templates(w http.ResponseWriter) (TemplateBackend, bool) {
	tb, ok := s.backend.(TemplateBackend)
	if !ok {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "this Ferry owner keeps no templates"))
	}
	return tb, ok
}

func (s *Server) handleListTemplates(w http.ResponseWriter, r *http.Request, c Caller) {
	tb, ok := s.templates(w)
	if !ok {
		return
	}
	out, err := tb.ListTemplates(r.Context())
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) handleGetTemplate(w http.ResponseWriter, r *http.Request, c Caller) {
	tb, ok := s.templates(w)
	if !ok {
		return
	}
	t, err := tb.GetTemplate(r.Context(), r.PathValue("name"))
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
	tb, ok := s.templates(w)
	if !ok {
		return
	}
	out, err := tb.SaveTemplate(r.Context(), t)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleDeleteTemplate(w http.ResponseWriter, r *http.Request, c Caller) {
	tb, ok := s.templates(w)
	if !ok {
		return
	}
	name := r.PathValue("name")
	if err := tb.DeleteTemplate(r.Context(), name); err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, DeletedTemplate{Deleted: name})
}
