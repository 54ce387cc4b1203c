package provider

import (
	"context"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// SelectModel implements ModelSelector for pickers that open a menu of
// items: it opens the picker, clicks the item whose text or test id
// contains one of the model's labels, and reads the picker back.
func (w *Web) SelectModel(ctx context.Context, m site.Model) (string, error) {
	s := w.Env.Site
	if len(m.Labels) == 0 {
		return "", errs.New(errs.ModelUnavailable, "model %q of %s has no picker label", m.Alias, s.Name)
	}
	pickers, items := s.Selector(site.RoleModelPicker), s.Selector(site.RoleModelItem)
	var out struct {
		Picker  int      `json:"picker"`
		Item    string   `json:"item"`
		Label   string   `json:"label"`
		Found   bool     `json:"found"`
		Offered []string `json:"offered"`
	}
	for attempt := 0; attempt < 20; attempt++ {
		if err := w.Page.EvalInto(ctx, &out, selectModelJS, pickers, items, m.Labels, attempt == 0); err != nil {
			return "", err
		}
		if out.Picker < 0 {
			return "", errs.New(errs.ModelUnavailable, "%s shows no model picker on this page (%s resolves nowhere: tried %s), so the model %q cannot be chosen; nothing was sent",
				s.Name, site.RoleModelPicker, strings.Join(pickers, " | "), m.Alias).
				WithEvidence("role", string(site.RoleModelPicker)).WithEvidence("feature", string(site.FeatureModelSelection)).
				WithEvidence("model", m.Alias).
				WithHint("ask with the default model to use the one %s has selected (some accounts get no model choice); the site check (Settings → Sites) shows what the page lacks", s.Name)
		}
		if out.Found {
			break
		}
		if attempt == 0 {
			if _, err := w.Page.Click(ctx, pickers[out.Picker]); err != nil {
				return "", err
			}
		}
		select {
		case <-ctx.Done():
			return "", ContextErr(ctx, "selecting the model")
		case <-time.After(w.Poll):
		}
	}
	if !out.Found {
		offered := strings.Join(out.Offered, ", ")
		return "", errs.New(errs.ModelUnavailable, "the %s model menu has no entry for %q (looked for %s; it offers: %s); nothing was sent", s.Name, m.Alias, strings.Join(m.Labels, ", "), firstNonEmpty(offered, "nothing")).
			WithEvidence("model", m.Alias).WithEvidence("offered", offered).
			WithHint("ask for a model the %s menu offers (%s), or without --model for the one selected", s.Name, firstNonEmpty(offered, "none"))
	}
	if _, err := w.Page.Click(ctx, out.Item); err != nil {
		return "", err
	}
	return out.Label, nil
}

// selectModelJS finds the picker and, once the menu is open, the item for
// the labels; it tags the item with a one-off attribute so that a trusted
// click can target exactly it.
const selectModelJS = `(pickers, items, labels, first) => {
  const vis = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  let picker = -1;
  for (let i = 0; i < pickers.length && picker < 0; i++) {
    try { if (Array.from(document.querySelectorAll(pickers[i])).some(vis)) picker = i; } catch (e) {}
  }
  const ls = labels.map((l) => l.toLowerCase());
  const score = (el) => {
    const text = (el.innerText || '').trim().toLowerCase();
    const id = (el.getAttribute('data-testid') || '').toLowerCase();
    const html = el.outerHTML.slice(0, 400).toLowerCase();
    if (ls.some((l) => text === l)) return 3;
    if (ls.some((l) => id.includes(l) || text.includes(l))) return 2;
    if (ls.some((l) => html.includes(l))) return 1;
    return 0;
  };
  for (const s of items) {
    let els = [];
    try { els = Array.from(document.querySelectorAll(s)).filter(vis); } catch (e) { continue; }
    let best = null, bestScore = 0;
    for (const el of els) { const sc = score(el); if (sc > bestScore) { best = el; bestScore = sc; } }
    if (best) {
      document.querySelectorAll('[data-ferry-pick]').forEach((e) => e.removeAttribute('data-ferry-pick'));
      best.setAttribute('data-ferry-pick', '1');
      return {picker, item: '[data-ferry-pick="1"]', label: (best.innerText || '').trim(), found: true};
    }
  }
  const offered = [];
  for (const s of items) {
    try { for (const el of document.querySelectorAll(s)) { const t = (el.innerText || '').trim(); if (vis(el) && t && !offered.includes(t)) offered.push(t); } } catch (e) {}
  }
  return {picker, item: '', label: '', found: false, offered: offered.slice(0, 20)};
}`

// StartNewChat implements NewChatStarter by loading the site's new-chat
// address in the tab.
func (w *Web) StartNewChat(ctx context.Context) error {
	u := w.Env.Site.NewChat
	if u == "" {
		u = w.Env.Site.Address
	}
	return w.Page.Navigate(ctx, u)
}

// Reload implements Reloader: the tab loads the address it shows afresh.
func (w *Web) Reload(ctx context.Context) error {
	info, err := w.Page.Info(ctx)
	if err != nil {
		return err
	}
	return w.Page.Navigate(ctx, info.URL)
}

// Interface guards.
var (
	_ Adapter        = (*Web)(nil)
	_ ModelSelector  = (*Web)(nil)
	_ NewChatStarter = (*Web)(nil)
	_ Reloader       = (*Web)(nil)
)
