package deepseek

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// DeepSeek's effort is its "DeepThink" toggle (div.ds-toggle-button, on
// when it carries ds-toggle-button--selected; the reference §7): the
// "deepthink" tier turns it on, "standard" off. The send carries it as
// thinking_enabled.

// togglePatience bounds the wait for a click on the toggle to show.
const togglePatience = 3 * time.Second

// toggleJS finds the toggle labelled label, marks it for a trusted click
// and reads whether it is on.
const toggleJS = `(label) => {
  const b = [...document.querySelectorAll('div.ds-toggle-button, button.ds-toggle-button')].find((el) =>
    el.getClientRects().length > 0 && (el.innerText || '').trim().toLowerCase() === label.toLowerCase());
  document.querySelectorAll('[data-ferry-toggle]').forEach((e) => e.removeAttribute('data-ferry-toggle'));
  if (!b) return {found: false};
  b.setAttribute('data-ferry-toggle', '1');
  const on = b.classList.contains('ds-toggle-button--selected') || b.getAttribute('aria-pressed') === 'true' || b.getAttribute('aria-checked') === 'true';
  return {found: true, on};
}`

type toggleState struct {
	Found bool `json:"found"`
	On    bool `json:"on"`
}

// SelectChoice implements provider.EffortSelector: the model radio (m, the
// zero Model leaves it) as provider.Web chooses it, then the DeepThink
// toggle set to e and read back. Errors, with nothing typed:
// ModelUnavailable when the page shows no toggle or it does not switch.
func (a *Adapter) SelectChoice(ctx context.Context, m site.Model, e site.Effort) (string, error) {
	label := ""
	if m.Alias != "" {
		var err error
		if label, err = a.Web.SelectModel(ctx, m); err != nil {
			return "", err
		}
	}
	if e.Name == "" {
		return label, nil
	}
	want := e.Level > 0
	var st toggleState
	deadline := time.Now().Add(togglePatience)
	for clicked := false; ; {
		if err := a.Page.EvalInto(ctx, &st, toggleJS, "DeepThink"); err != nil {
			return "", err
		}
		if !st.Found {
			return "", errs.New(errs.ModelUnavailable, "DeepSeek shows no DeepThink toggle, so the %s effort cannot be set; nothing was sent", e.Name).
				WithEvidence("effort", e.Name).WithHint("ask without --effort to use what the page has")
		}
		if st.On == want {
			break
		}
		if time.Now().After(deadline) {
			return "", errs.New(errs.ModelUnavailable, "DeepSeek's DeepThink toggle did not switch %s; nothing was sent", map[bool]string{true: "on", false: "off"}[want]).
				WithEvidence("effort", e.Name).WithHint("set DeepThink in the DeepSeek tab by hand and ask without --effort")
		}
		if !clicked {
			if _, err := a.Page.Click(ctx, `[data-ferry-toggle="1"]`); err != nil {
				return "", err
			}
			clicked = true
		}
		select {
		case <-ctx.Done():
			return "", provider.ContextErr(ctx, "setting DeepThink")
		case <-time.After(a.Poll):
		}
	}
	if label != "" {
		return label + " · " + e.Labels[0], nil
	}
	return e.Labels[0], nil
}
