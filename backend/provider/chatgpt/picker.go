package chatgpt

import (
	"context"

	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/picker"
	"github.com/ferrydesk/ferry/backend/site"
)

// SelectModel implements provider.ModelSelector: a model alias, or an alias
// that stands for a tier ("pro").
func (a *Adapter) SelectModel(ctx context.Context, m site.Model) (string, error) {
	if m.Effort != "" {
		e, err := a.Site().Effort(m.Effort)
		if err != nil {
			return "", err
		}
		return a.SelectChoice(ctx, site.Model{}, e)
	}
	return a.SelectChoice(ctx, m, site.Effort{})
}

// SelectChoice implements provider.EffortSelector with ChatGPT's picker,
// whichever of its 2026 layouts the page shows (see package picker): the
// choice is read back before anything is typed, and what cannot be chosen
// or confirmed is refused with nothing sent.
func (a *Adapter) SelectChoice(ctx context.Context, m site.Model, e site.Effort) (string, error) {
	p := picker.Picker{Page: a.Page, Site: a.Site(), Poll: a.Poll}
	return p.Choose(ctx, m, e)
}
