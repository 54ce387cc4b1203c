package runs

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// taskOf is the prompt text, or the rendering of the template with vars;
// exactly one of them.
func (p *Pipeline) taskOf(ctx context.Context, text, template string, vars map[string]string) (string, error) {
	if template == "" {
		if len(vars) > 0 {
			return "", errs.New(errs.BadInput, "variables were given without a template").
				WithHint("add --template NAME, or drop the --var flags")
		}
		return text, nil
	}
	if strings.TrimSpace(text) != "" {
		return "", errs.New(errs.BadInput, "give the prompt or a template, not both").
			WithHint("drop the prompt text, or drop --template")
	}
	return p.templates.Render(ctx, template, vars)
}
