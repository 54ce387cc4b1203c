package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/prompt/templates"
)

// Templates returns the repository of the templates: the built-in ones and
// the user's, kept in this core's store.
func (c *Core) Templates() templates.Repo { return templates.New(c.Store) }

// RenderTemplate fills the template called name with vars and returns the
// prompt text. Errors: as templates.Repo.Render.
func (c *Core) RenderTemplate(ctx context.Context, name string, vars map[string]string) (string, error) {
	return c.Templates().Render(ctx, name, vars)
}
