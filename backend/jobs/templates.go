package jobs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/prompt/templates"
	"github.com/ferrydesk/ferry/backend/service"
)

// The owner's templates through the hub (ferry templates while an owner
// runs): the same repository and errors as embedded.

func templateOut(t templates.Info) service.Template {
	return service.Template{Name: t.Name, Description: t.Description, Body: t.Body, Variables: t.Variables, BuiltIn: t.BuiltIn, UpdatedAt: t.UpdatedAt}
}

// ListTemplates lists the built-in and the user's templates. Errors: as
// templates.Repo.List.
func (h *Runner) ListTemplates(ctx context.Context) ([]service.Template, error) {
	list, err := h.templates.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]service.Template, 0, len(list))
	for _, t := range list {
		out = append(out, templateOut(t))
	}
	return out, nil
}

// GetTemplate returns one template. Errors: as templates.Repo.Get.
func (h *Runner) GetTemplate(ctx context.Context, name string) (service.Template, error) {
	t, err := h.templates.Get(ctx, name)
	if err != nil {
		return service.Template{}, err
	}
	return templateOut(t), nil
}

// SaveTemplate saves the user's template t.Name (BuiltIn and UpdatedAt of
// t are ignored). Errors: as templates.Repo.Save.
func (h *Runner) SaveTemplate(ctx context.Context, t service.Template) (service.Template, error) {
	saved, err := h.templates.Save(ctx, templates.Info{Name: t.Name, Description: t.Description, Body: t.Body, Variables: t.Variables})
	if err != nil {
		return service.Template{}, err
	}
	return templateOut(saved), nil
}

// DeleteTemplate deletes the user's template name. Errors: as
// templates.Repo.Delete.
func (h *Runner) DeleteTemplate(ctx context.Context, name string) error {
	return h.templates.Delete(ctx, name)
}

// RenderTemplate fills template name with vars. Errors: as
// templates.Repo.Render.
func (h *Runner) RenderTemplate(ctx context.Context, name string, vars map[string]string) (service.Rendered, error) {
	text, err := h.templates.Render(ctx, name, vars)
	if err != nil {
		return service.Rendered{}, err
	}
	return service.Rendered{Name: name, Text: text}, nil
}
