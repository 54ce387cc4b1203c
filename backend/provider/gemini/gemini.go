// Package gemini is Ferry's adapter for Gemini (gemini.google.com). It types
// into the Quill editor (cleared, then execCommand insertText), clicks the
// send button (Enter does not submit, and the button stays enabled
// throughout, turning into the stop control while Gemini answers), and
// completes the turn from the StreamGenerate response when page-level
// capture sees it, else by the DOM rule: .response-footer.complete, or
// aria-busy="false" with the copy button, stop gone and the text stable,
// never while the text is an interim "Searching the internet" / "Analyzing"
// / "Thinking". The mode picker drops selections now and then, so a model is
// selected and read back until the picker names it. The model is proven by
// the stream's routed model (body[42]) when captured, else by the picker's
// label.
//
// This folder holds everything Ferry knows about Gemini: site.go (its
// registry entry), stream.go (decoder "gemini-frames"), rules.go (its
// interstitial signs), sim.go and sim.js (its simulator stand-in and page,
// with the fidelity notes against the providers reference) and this adapter,
// with its captures under testdata. Its init registers each part with its
// registry (stream, site, interstitial, sim, provider); provider/all links it
// in.
package gemini

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// ID is the site id the adapter registers for.
const ID = "gemini"

func init() {
	stream.Register(DecoderName, func() stream.Decoder { return NewDecoder() })
	site.Register(Site())
	for _, r := range Rules() {
		interstitial.Register(r)
	}
	sim.Register(SimSite())
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives Gemini in one tab: provider.Web with Gemini's registry
// selectors, plus a picker that is read back and the picker-label model
// proof for answers read from the page.
type Adapter struct {
	*provider.Web
	images turnImages // the images of the turn last extracted
}

// New returns the adapter for env. It fails with BadInput when env lacks a
// page or a site, or names a site other than gemini.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.ID != ID {
		return nil, errs.New(errs.BadInput, "the gemini adapter cannot drive site %q", env.Site.ID)
	}
	w, err := provider.NewWeb(env)
	if err != nil {
		return nil, err
	}
	return &Adapter{Web: w}, nil
}

// selectAttempts bounds how often a dropped selection is retried.
const selectAttempts = 4

// SelectModel implements provider.ModelSelector. Gemini's mode picker drops
// selections now and then: after each click the picker's own label is read
// back, and the selection is repeated until it names the model. It fails
// with ModelUnavailable when there is no picker or its menu has no entry for
// the model, and with ModelMismatch when the picker never shows it.
func (a *Adapter) SelectModel(ctx context.Context, m site.Model) (string, error) {
	if len(m.Labels) == 0 {
		return "", errs.New(errs.ModelUnavailable, "model %q of Gemini has no picker label", m.Alias).WithEvidence("model", m.Alias)
	}
	shown := ""
	for attempt := 0; attempt < selectAttempts; attempt++ {
		label, err := a.pickerLabel(ctx)
		if err != nil {
			return "", err
		}
		if names(label, m) {
			return label, nil
		}
		if err := a.pick(ctx, m); err != nil {
			return "", err
		}
		// The picker re-renders its label after the menu closes.
		deadline := time.Now().Add(1500 * time.Millisecond)
		for time.Now().Before(deadline) {
			if shown, err = a.pickerLabel(ctx); err != nil {
				return "", err
			}
			if names(shown, m) {
				return shown, nil
			}
			if err := a.pause(ctx, "selecting the model"); err != nil {
				return "", err
			}
		}
	}
	return "", errs.New(errs.ModelMismatch, "the Gemini mode picker still shows %q after %d selections of %q", shown, selectAttempts, m.Alias).
		WithEvidence("model", m.Alias).WithEvidence("picker", shown).
		WithHint("choose %q in Gemini's mode picker by hand, then ask without --model", m.Labels[0])
}

// pick opens the mode picker (unless its menu is open), waits for the menu
// entry whose text is one of the model's labels and clicks it once with a
// trusted click, scrolled into view first: the menu can open below the fold.
func (a *Adapter) pick(ctx context.Context, m site.Model) error {
	s := a.Env.Site
	pickers, items := s.Selector(site.RoleModelPicker), s.Selector(site.RoleModelItem)
	opened := false
	for tick := 0; tick < 20; tick++ {
		var out struct {
			Picker  int      `json:"picker"`
			Menu    bool     `json:"menu"`
			Found   bool     `json:"found"`
			Offered []string `json:"offered"`
		}
		if err := a.Page.EvalInto(ctx, &out, findItemJS, pickers, items, m.Labels); err != nil {
			return err
		}
		if out.Picker < 0 {
			return errs.New(errs.ModelUnavailable, "no Gemini mode picker on the page (tried %s)", strings.Join(pickers, " | ")).
				WithEvidence("role", string(site.RoleModelPicker)).
				WithHint("the page may have changed: override the %q selectors of site %q in settings", site.RoleModelPicker, s.ID)
		}
		if out.Found {
			_, err := a.Page.Click(ctx, `[data-ferry-pick="1"]`)
			return err
		}
		if out.Menu && tick >= 5 {
			offered := strings.Join(out.Offered, ", ")
			return errs.New(errs.ModelUnavailable, "the Gemini mode menu has no entry for %q (looked for %s; it offers: %s); nothing was sent", m.Alias, strings.Join(m.Labels, ", "), offered).
				WithEvidence("model", m.Alias).WithEvidence("offered", offered).
				WithHint("ask for a mode the menu offers (%s), or without --model for the one selected", offered)
		}
		if !opened && !out.Menu {
			if _, err := a.Page.Click(ctx, pickers[out.Picker]); err != nil {
				return err
			}
			opened = true
		}
		if err := a.pause(ctx, "opening the mode picker"); err != nil {
			return err
		}
	}
	return errs.New(errs.ModelUnavailable, "the Gemini mode menu did not open (tried %s)", strings.Join(items, " | ")).
		WithEvidence("role", string(site.RoleModelItem)).
		WithHint("the page may have changed: override the %q selectors of site %q in settings", site.RoleModelItem, s.ID)
}

func (a *Adapter) pause(ctx context.Context, what string) error {
	select {
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return errs.Wrap(ctx.Err(), errs.Timeout, "the deadline passed while %s", what)
		}
		return errs.Wrap(ctx.Err(), errs.Cancelled, "cancelled while %s", what)
	case <-time.After(a.Poll):
		return nil
	}
}

// findItemJS finds the visible picker and, in an open menu, the entry whose
// text equals one of the labels ("Flash" is not "Flash-Lite"); it tags the
// entry with a one-off attribute and scrolls it into view so that a trusted
// click can target exactly it.
const findItemJS = `(pickers, items, labels) => {
  const vis = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  let picker = -1;
  for (let i = 0; i < pickers.length && picker < 0; i++) {
    try { if (Array.from(document.querySelectorAll(pickers[i])).some(vis)) picker = i; } catch (e) {}
  }
  const ls = labels.map((l) => l.trim().toLowerCase());
  let menu = false;
  const offered = [];
  for (const s of items) {
    let els = [];
    try { els = Array.from(document.querySelectorAll(s)).filter(vis); } catch (e) { continue; }
    if (els.length) menu = true;
    for (const el of els) { const t = (el.innerText || '').trim(); if (t && !offered.includes(t)) offered.push(t); }
    const hit = els.find((el) => ls.includes((el.innerText || '').trim().toLowerCase()));
    if (hit) {
      document.querySelectorAll('[data-ferry-pick]').forEach((e) => e.removeAttribute('data-ferry-pick'));
      hit.setAttribute('data-ferry-pick', '1');
      hit.scrollIntoView({block: 'center', inline: 'center'});
      return {picker, menu, found: true};
    }
  }
  return {picker, menu, found: false, offered: offered.slice(0, 20)};
}`

// pickerLabel reads the mode picker's current label: its text, else its
// aria-label ("Open mode picker, currently Flash").
func (a *Adapter) pickerLabel(ctx context.Context) (string, error) {
	var label string
	err := a.Page.EvalInto(ctx, &label, pickerLabelJS, a.Env.Site.Selector(site.RoleModelPicker))
	return strings.TrimSpace(label), err
}

const pickerLabelJS = `(sels) => {
  for (const s of sels) {
    let els = [];
    try { els = Array.from(document.querySelectorAll(s)); } catch (e) { continue; }
    for (const el of els) {
      if (!el.getClientRects().length) continue;
      const t = (el.innerText || '').trim();
      if (t) return t;
      const al = el.getAttribute('aria-label') || '';
      const m = al.match(/currently\s+(.+)$/i);
      if (m) return m[1].trim();
    }
  }
  return '';
}`

// names reports whether the picker label is exactly one of the model's
// labels ("Flash" must not match "Flash-Lite").
func names(label string, m site.Model) bool {
	for _, l := range m.Labels {
		if strings.EqualFold(strings.TrimSpace(label), l) {
			return true
		}
	}
	return false
}

// Wait implements provider.Adapter: provider.Web's wait, then a look at the
// finished turn. Gemini reports a failed turn as a normal, complete answer
// ("Sorry, something went wrong…"), so a completed turn is checked for the
// page's error notices before it counts as an answer.
func (a *Adapter) Wait(ctx context.Context, t *provider.Turn, onPartial func(provider.Partial)) error {
	if err := a.Web.Wait(ctx, t, onPartial); err != nil {
		return err
	}
	r, err := a.Interstitial(ctx)
	if err != nil {
		return err
	}
	if r.Code != "" && r.Terminal {
		return r.Err()
	}
	return nil
}

// Extract implements provider.Adapter: provider.Web's answer, with the
// model proven by the stream's routed model when it was captured, else by
// the mode picker's label (read now, after the answer).
func (a *Adapter) Extract(ctx context.Context, t *provider.Turn) (*provider.Answer, error) {
	ans, err := a.Web.Extract(ctx, t)
	if err != nil {
		return nil, err
	}
	a.keepImages(t, ans.ConversationID)
	if ans.Model.Slug == "" {
		label, err := a.pickerLabel(ctx)
		if err != nil {
			return nil, err
		}
		if label != "" {
			ans.Model.Slug, ans.Model.Source = label, "dom:mode_picker_label"
		}
	}
	return ans, nil
}

// Interface guards.
var (
	_ provider.Adapter        = (*Adapter)(nil)
	_ provider.ModelSelector  = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
