package service

import (
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Template is a prompt template with {{variables}}: a built-in one
// (read-only) or the user's.
type Template struct {
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	Body        string    `json:"body"`
	Variables   []string  `json:"variables"`
	BuiltIn     bool      `json:"builtIn"`
	UpdatedAt   time.Time `json:"updatedAt,omitzero"`
}

// Validate checks a template to save (BuiltIn and UpdatedAt are ignored;
// the body's own rules are the implementation's). Errors: errs.BadInput
// for a blank name.
func (t Template) Validate() error { return TemplateRef{Name: t.Name}.Validate() }

// ListTemplatesRequest lists the built-in and the user's templates.
type ListTemplatesRequest struct{}

// Validate accepts every request.
func (ListTemplatesRequest) Validate() error { return nil }

// TemplateRef names a template.
type TemplateRef struct {
	Name string `json:"name"`
}

// Validate checks the reference. Errors: errs.BadInput for a blank name.
func (r TemplateRef) Validate() error {
	if strings.TrimSpace(r.Name) == "" {
		return errs.New(errs.BadInput, "no template named").WithHint("give the template's name (`ferry templates list` shows them)")
	}
	return nil
}

// DeletedTemplate answers a deletion.
type DeletedTemplate struct {
	Deleted string `json:"deleted"`
}

// RenderRequest fills template Name with Vars.
type RenderRequest struct {
	Name string            `json:"name"`
	Vars map[string]string `json:"vars,omitempty"`
}

// Validate checks the request. Errors: as TemplateRef.Validate.
func (r RenderRequest) Validate() error { return TemplateRef{Name: r.Name}.Validate() }

// Rendered is a template's prompt text.
type Rendered struct {
	Name string `json:"name"`
	Text string `json:"text"`
}
