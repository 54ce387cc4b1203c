// Package picker chooses a model and an effort tier in ChatGPT's picker and
// reads them back, on each of its 2026 layouts (see Picker).
package picker

import (
	"cmp"
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// Picker drives the model picker of the ChatGPT page Page, whose registry entry
// is Site (its picker selectors, models and efforts), looking every Poll.
type Picker struct {
	Page *browser.Page
	Site site.Site
	Poll time.Duration
}

// Choose sets the model m (the zero Model leaves it) and the tier e (the
// zero Effort leaves it), reopens the menu and reads both back, and returns
// what it read ("GPT-5.6 Sol · Pro"). Errors, each with nothing typed:
// ModelUnavailable when the page shows no picker, a menu Ferry does not
// know, no such model or tier (listing those it offers) or a choice that
// does not read back; UsageCap with the reset time for a used-up tier
// (never a cheaper one instead).
func (p *Picker) Choose(ctx context.Context, m site.Model, e site.Effort) (string, error) {
	if _, ok, err := p.pickerUntil(ctx, pickerPatience, func(st pickerState) bool { return st.Trigger }); err != nil {
		return "", err
	} else if !ok {
		return "", errs.New(errs.ModelUnavailable, "ChatGPT shows no model picker on this page (none of %s), so the model cannot be chosen; nothing was sent",
			strings.Join(p.Site.Selector(site.RoleModelPicker), " | ")).
			WithEvidence("role", string(site.RoleModelPicker)).WithEvidence("feature", string(site.FeatureModelSelection)).
			WithHint("ask without --model/--effort to use what ChatGPT has selected; `ferry doctor --sites` shows which picker the page has")
	}
	if e.Name != "" {
		if err := p.chooseTier(ctx, e); err != nil {
			p.closePicker(ctx)
			return "", err
		}
	}
	if m.Alias != "" {
		if err := p.chooseModel(ctx, m); err != nil {
			p.closePicker(ctx)
			return "", err
		}
	}
	model, tier, err := p.readBack(ctx)
	p.closePicker(ctx)
	if err != nil {
		return "", err
	}
	if e.Name != "" && !labelIs(tier, e.Labels) {
		return "", unconfirmed("tier "+e.Labels[0], tier)
	}
	if m.Alias != "" && !modelIs(model, m.Labels) {
		return "", unconfirmed("model "+m.Labels[0], model)
	}
	return model + " · " + tier, nil
}

// ChatGPT's model and effort picker (the reference, "What changed":
// Intelligence picker) had three layouts in 2026, told apart here by what
// the open menu shows, never by date:
//   - "intelligence" (2026-07-10): a group of tier rows (menuitemradio) and
//     a row with a submenu of models;
//   - "power" (2026-08-07): "Show advanced options", then Model and Effort
//     rows that open submenus of menuitemradio rows (trusted clicks only);
//   - "slider" (2026-08-31): a 0–4 slider moved by ArrowLeft/ArrowRight,
//     read from aria-valuenow and its aria-describedby text, and the
//     models as menuitemradio rows behind "Show advanced options".
// A choice is read back from a reopened menu before anything is typed;
// what cannot be chosen or confirmed is refused with nothing sent, listing
// what the page offers.

const (
	// pickerPatience bounds the wait for the trigger: it mounts 1–4 s after
	// the page is interactive.
	pickerPatience = 6 * time.Second
	// stepPatience bounds the wait for one step's effect: a menu opening, a
	// submenu, a slider step (~220 ms each on the page).
	stepPatience = 3 * time.Second
)

var escape = browser.Key{Key: "Escape", Code: "Escape", KeyCode: 27}

// pickerRow is one row of an open picker menu.
type pickerRow struct {
	Label    string `json:"label"`
	Checked  bool   `json:"checked"`
	Disabled bool   `json:"disabled"`
	Note     string `json:"note"` // the text its aria-describedby names
}

// pickerState is what the page shows of the picker. Tiers and Models are
// the menuitemradio rows showing, split by whether their text is a tier's.
type pickerState struct {
	Trigger    bool              `json:"trigger"`
	Pill       string            `json:"pill"` // the trigger's text (the tier)
	Open       bool              `json:"open"`
	Layout     string            `json:"layout"` // intelligence, power, slider; unknown; "" when closed
	Advanced   bool              `json:"advanced"`
	Tiers      []pickerRow       `json:"tiers"`
	Models     []pickerRow       `json:"models"`
	Openers    map[string]string `json:"openers"` // "model", "effort": the submenu rows' values
	Level      int               `json:"level"`   // the slider's aria-valuenow; -1 without one
	Max        int               `json:"max"`
	SliderText string            `json:"sliderText"`
	Rows       []string          `json:"rows"` // every live row's text, for an unknown menu
	Marked     bool              `json:"marked"`
}

// pickMark asks pickerJS to tag one element for a trusted click, a hover
// or a key: kind trigger, tier, model, opener-model, opener-effort,
// advanced or slider (focused instead of tagged).
type pickMark struct {
	Kind  string `json:"kind"`
	Label string `json:"label,omitempty"`
}

// pickerJS reads the picker (see pickerState) and tags what mark asks for
// with data-ferry-pick. Rows inside an inert subtree (the Power layout's
// mounted copy of its collapsed view) are not the picker's.
const pickerJS = `(triggers, tierLabels, mark) => {
  const live = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[inert]');
  const text = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
  const all = (sel, root) => { try { return [...(root || document).querySelectorAll(sel)].filter(live); } catch (e) { return []; } };
  document.querySelectorAll('[data-ferry-pick]').forEach((e) => e.removeAttribute('data-ferry-pick'));
  const st = {trigger: false, pill: '', open: false, layout: '', advanced: false, tiers: [], models: [], openers: {}, level: -1, max: -1, sliderText: '', rows: [], marked: false};
  const tag = (el) => { if (el) { el.setAttribute('data-ferry-pick', '1'); st.marked = true; } };
  let trig = null;
  for (const s of triggers) { trig = all(s)[0]; if (trig) break; }
  st.trigger = !!trig;
  st.pill = trig ? text(trig) : '';
  if (mark && mark.kind === 'trigger') tag(trig);
  const menus = all('[role="menu"]');
  st.open = menus.length > 0;
  if (!st.open) return st;
  const on = (el) => ['aria-checked', 'aria-selected', 'aria-current'].some((a) => el.getAttribute(a) === 'true') || ['checked', 'on'].includes(el.getAttribute('data-state'));
  const off = (el) => el.getAttribute('aria-disabled') === 'true' || el.hasAttribute('data-disabled') || el.getAttribute('data-state') === 'disabled' || el.hasAttribute('disabled');
  const described = (el) => (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean)
    .map((id) => { const d = document.getElementById(id); return d ? text(d) : ''; }).filter(Boolean).join(' ');
  const tiers = tierLabels.map((l) => l.toLowerCase());
  const radios = menus.flatMap((m) => all('[role="menuitemradio"]', m));
  st.rows = menus.flatMap((m) => all('[role="menuitemradio"], [role="menuitem"]', m)).map(text).slice(0, 40);
  const tierRows = radios.filter((r) => tiers.includes(text(r).toLowerCase()));
  const modelRows = radios.filter((r) => !tierRows.includes(r));
  st.tiers = tierRows.map((r) => ({label: text(r), checked: on(r), disabled: off(r), note: described(r)}));
  st.models = modelRows.map((r) => ({label: text(r), checked: on(r), disabled: off(r), note: described(r)}));
  const group = all('[data-testid="composer-intelligence-picker-content"]')[0];
  const slider = all('[data-model-reasoning-effort-slider] [role="slider"], [role="menuitem"][aria-keyshortcuts] [role="slider"]')[0];
  const adv = all('[data-testid="composer-model-picker-slider-advanced-view"]')[0];
  const toggle = all('[role="menuitem"][aria-label="Show advanced options"]')[0];
  const compact = all('[role="menuitem"][aria-label="Show compact options"]')[0];
  st.advanced = !!adv || !!compact;
  const openers = {};
  if (group) {
    st.layout = 'intelligence';
    const o = all('[data-has-submenu], [aria-haspopup="menu"]', group)[0];
    if (o) { st.openers.model = text(o); openers.model = o; }
  } else if (slider) {
    st.layout = 'slider';
    st.level = parseInt(slider.getAttribute('aria-valuenow'), 10);
    st.max = parseInt(slider.getAttribute('aria-valuemax'), 10);
    if (isNaN(st.level)) st.level = -1;
    if (isNaN(st.max)) st.max = -1;
    st.sliderText = described(slider);
  } else if (toggle || compact || adv) {
    st.layout = 'power';
    for (const o of adv ? all('[data-has-submenu], [aria-haspopup="menu"]', adv) : []) {
      const m = /^(Model|Effort)\s*(.*)$/i.exec(text(o));
      if (m) { st.openers[m[1].toLowerCase()] = m[2].trim(); openers[m[1].toLowerCase()] = o; }
    }
  } else {
    st.layout = 'unknown';
  }
  if (!mark) return st;
  const want = (mark.label || '').toLowerCase();
  switch (mark.kind) {
    case 'tier': tag(tierRows.find((r) => text(r).toLowerCase() === want)); break;
    case 'model': {
      const starts = (r) => { const t = text(r).toLowerCase(); return t === want || t.startsWith(want + ' '); };
      tag(modelRows.find((r) => text(r).toLowerCase() === want) || modelRows.find(starts));
      break;
    }
    case 'opener-model': tag(openers.model); break;
    case 'opener-effort': tag(openers.effort); break;
    case 'advanced': tag(toggle); break;
    case 'slider': if (slider) { slider.focus(); st.marked = document.activeElement === slider; } break;
  }
  return st;
}`

// picker reads the picker, tagging what mark asks for (nil: nothing).
func (p *Picker) picker(ctx context.Context, mark *pickMark) (pickerState, error) {
	var st pickerState
	err := p.Page.EvalInto(ctx, &st, pickerJS, p.Site.Selector(site.RoleModelPicker), p.tierLabels(), mark)
	return st, err
}

// pickerUntil polls the picker until ok holds or patience runs out,
// returning the last state and whether ok held.
func (p *Picker) pickerUntil(ctx context.Context, patience time.Duration, ok func(pickerState) bool) (pickerState, bool, error) {
	deadline := time.Now().Add(patience)
	for {
		st, err := p.picker(ctx, nil)
		if err != nil || ok(st) {
			return st, err == nil, err
		}
		if time.Now().After(deadline) {
			return st, false, nil
		}
		select {
		case <-ctx.Done():
			return st, false, provider.ContextErr(ctx, "choosing the ChatGPT model")
		case <-time.After(p.Poll):
		}
	}
}

// pick tags what mark names and clicks it; false when the page shows no
// such element.
func (p *Picker) pick(ctx context.Context, mark pickMark) (bool, error) {
	st, err := p.picker(ctx, &mark)
	if err != nil || !st.Marked {
		return false, err
	}
	_, err = p.Page.Click(ctx, `[data-ferry-pick="1"]`)
	return err == nil, err
}

func (p *Picker) tierLabels() []string {
	var out []string
	for _, e := range p.Site.Efforts {
		out = append(out, e.Labels...)
	}
	return out
}

func unconfirmed(want, got string) error {
	return errs.New(errs.ModelUnavailable, "ChatGPT's picker shows %q after choosing the %s; nothing was sent", got, want).
		WithEvidence("read_back", got).WithEvidence("wanted", want).
		WithHint("choose it in the ChatGPT tab by hand and ask without --model/--effort, or retry")
}

// openPicker opens the menu (unless open) and returns what it shows.
func (p *Picker) openPicker(ctx context.Context) (pickerState, error) {
	st, err := p.picker(ctx, nil)
	if err != nil || (st.Open && st.Layout != "") {
		return st, err
	}
	if _, err := p.pick(ctx, pickMark{Kind: "trigger"}); err != nil {
		return st, err
	}
	st, ok, err := p.pickerUntil(ctx, stepPatience, func(st pickerState) bool { return st.Open })
	if err != nil {
		return st, err
	}
	if !ok {
		return st, errs.New(errs.ModelUnavailable, "ChatGPT's model picker did not open; nothing was sent").
			WithHint("retry; if it keeps failing, `ferry doctor --sites` shows what the page has")
	}
	if st.Layout == "unknown" {
		return st, errs.New(errs.ModelUnavailable, "ChatGPT's model picker shows a menu Ferry does not know (rows: %s); nothing was sent", strings.Join(st.Rows, " | ")).
			WithEvidence("rows", strings.Join(st.Rows, " | ")).
			WithHint("ask without --model/--effort, and report the page: `ferry doctor --sites` names the layouts Ferry knows")
	}
	return st, nil
}

// closePicker closes an open menu with Escape, best effort.
func (p *Picker) closePicker(ctx context.Context) {
	if st, err := p.picker(ctx, nil); err != nil || !st.Open {
		return
	}
	if err := p.Page.Press(ctx, escape); err != nil {
		return
	}
	_, _, _ = p.pickerUntil(ctx, stepPatience, func(st pickerState) bool { return !st.Open })
}

// advanced shows the Power and slider layouts' advanced options.
func (p *Picker) advanced(ctx context.Context, st pickerState) (pickerState, error) {
	if st.Advanced {
		return st, nil
	}
	if _, err := p.pick(ctx, pickMark{Kind: "advanced"}); err != nil {
		return st, err
	}
	st, ok, err := p.pickerUntil(ctx, stepPatience, func(st pickerState) bool { return st.Advanced && (st.Layout != "power" || len(st.Openers) > 0) })
	if err == nil && !ok {
		err = errs.New(errs.ModelUnavailable, "ChatGPT's picker did not show its advanced options; nothing was sent")
	}
	return st, err
}

// submenu opens the row that leads to the models or the tiers ("model",
// "effort") and waits for its rows.
func (p *Picker) submenu(ctx context.Context, which string) (pickerState, error) {
	if _, err := p.pick(ctx, pickMark{Kind: "opener-" + which}); err != nil {
		return pickerState{}, err
	}
	st, ok, err := p.pickerUntil(ctx, stepPatience, func(st pickerState) bool {
		if which == "model" {
			return len(st.Models) > 0
		}
		return len(st.Tiers) > 0
	})
	if err == nil && !ok {
		err = errs.New(errs.ModelUnavailable, "ChatGPT's picker did not open its %s list; nothing was sent", which)
	}
	return st, err
}

// chooseTier sets the tier e.
func (p *Picker) chooseTier(ctx context.Context, e site.Effort) error {
	st, err := p.openPicker(ctx)
	if err != nil {
		return err
	}
	if st.Layout == "slider" {
		return p.slide(ctx, st, e)
	}
	if st.Layout == "power" {
		if st, err = p.advanced(ctx, st); err != nil {
			return err
		}
		if st, err = p.submenu(ctx, "effort"); err != nil {
			return err
		}
	}
	var row *pickerRow
	for i := range st.Tiers {
		if labelIs(st.Tiers[i].Label, e.Labels) {
			row = &st.Tiers[i]
		}
	}
	if row == nil {
		return notOffered("effort", e.Name, labels(st.Tiers))
	}
	if row.Disabled {
		return p.usedUp(ctx, e, row.Label)
	}
	if row.Checked {
		return nil
	}
	if ok, err := p.pick(ctx, pickMark{Kind: "tier", Label: row.Label}); err != nil || !ok {
		return cmp.Or(err, notOffered("effort", e.Name, labels(st.Tiers)))
	}
	return nil
}

// usedUp hovers a disabled tier row for the tooltip that says when it comes
// back, and makes that a usage cap.
func (p *Picker) usedUp(ctx context.Context, e site.Effort, label string) error {
	note := ""
	if st, err := p.picker(ctx, &pickMark{Kind: "tier", Label: label}); err == nil && st.Marked {
		if err := p.Page.Hover(ctx, `[data-ferry-pick="1"]`); err == nil {
			st, _, _ = p.pickerUntil(ctx, stepPatience, func(st pickerState) bool {
				for _, r := range st.Tiers {
					if r.Label == label && r.Note != "" {
						return true
					}
				}
				return false
			})
			for _, r := range st.Tiers {
				if r.Label == label {
					note = r.Note
				}
			}
		}
	}
	out := errs.New(errs.UsageCap, "ChatGPT's %s tier is used up for now (%s); nothing was sent, and no cheaper tier was used instead", label, cmp.Or(note, "the row is disabled")).
		WithEvidence("effort", e.Name).WithEvidence("notice", note)
	if at, ok := resetOf(note); ok {
		out = out.WithEvidence("resets_at", at.Format(time.RFC3339)).
			WithHint("the %s tier comes back after %s: retry then, or ask for a cheaper --effort", label, at.Format("Jan 2, 2006"))
	} else {
		out = out.WithHint("retry later, or ask for a cheaper --effort")
	}
	return out
}

// resetDate finds "Try again after Aug 16, 2026" in a tier's tooltip.
var resetDate = regexp.MustCompile(`(?i)after\s+([A-Z][a-z]+\.? \d{1,2}, \d{4})`)

// resetOf is the day a used-up tier's tooltip names (the start of that
// day, UTC: the page names no hour).
func resetOf(note string) (time.Time, bool) {
	m := resetDate.FindStringSubmatch(note)
	if m == nil {
		return time.Time{}, false
	}
	d := strings.Replace(m[1], ".", "", 1)
	for _, layout := range []string{"Jan 2, 2006", "January 2, 2006"} {
		if t, err := time.Parse(layout, d); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// slide moves the slider to e's level one arrow key at a time, each step
// waited out (keys pressed while it moves are dropped), and checks the
// slider's own text names the tier.
func (p *Picker) slide(ctx context.Context, st pickerState, e site.Effort) error {
	if st.Level < 0 || st.Max < 0 {
		return errs.New(errs.ModelUnavailable, "ChatGPT's effort slider shows no position; nothing was sent").WithEvidence("slider_text", st.SliderText)
	}
	if e.Level > st.Max {
		var offered []string
		for _, x := range p.Site.Efforts {
			if x.Level <= st.Max {
				offered = append(offered, x.Labels[0])
			}
		}
		return notOffered("effort", e.Name, offered)
	}
	for tries := 0; st.Level != e.Level; {
		key := browser.Key{Key: "ArrowRight", Code: "ArrowRight", KeyCode: 39}
		if e.Level < st.Level {
			key = browser.Key{Key: "ArrowLeft", Code: "ArrowLeft", KeyCode: 37}
		}
		focused, err := p.picker(ctx, &pickMark{Kind: "slider"})
		if err != nil {
			return err
		}
		if !focused.Marked {
			return errs.New(errs.ModelUnavailable, "ChatGPT's effort slider cannot be focused; nothing was sent")
		}
		if err := p.Page.Press(ctx, key); err != nil {
			return err
		}
		from := st.Level
		next, moved, err := p.pickerUntil(ctx, stepPatience, func(s pickerState) bool { return s.Level != from })
		if err != nil {
			return err
		}
		if !moved {
			if tries++; tries >= 3 {
				return errs.New(errs.ModelUnavailable, "ChatGPT's effort slider stays at %d of %d after %s; nothing was sent", from, st.Max, key.Key).
					WithEvidence("slider_text", next.SliderText)
			}
			continue
		}
		st = next
	}
	if !strings.HasPrefix(strings.ToLower(st.SliderText), strings.ToLower(e.Labels[0])+",") {
		return unconfirmed("tier "+e.Labels[0], st.SliderText)
	}
	return nil
}

// chooseModel sets the model m.
func (p *Picker) chooseModel(ctx context.Context, m site.Model) error {
	st, err := p.openPicker(ctx)
	if err != nil {
		return err
	}
	switch st.Layout {
	case "intelligence":
		st, err = p.submenu(ctx, "model")
	case "power":
		if st, err = p.advanced(ctx, st); err == nil {
			st, err = p.submenu(ctx, "model")
		}
	case "slider":
		st, err = p.advanced(ctx, st)
	}
	if err != nil {
		return err
	}
	for _, r := range st.Models {
		if !modelIs(r.Label, m.Labels) {
			continue
		}
		if r.Checked {
			return nil // clicking a checked row can close the menu or do nothing
		}
		for _, l := range m.Labels {
			if ok, err := p.pick(ctx, pickMark{Kind: "model", Label: l}); err != nil || ok {
				return err
			}
		}
	}
	return notOffered("model", m.Alias, labels(st.Models))
}

// readBack reopens the menu and reads the model and the tier it shows.
func (p *Picker) readBack(ctx context.Context) (model, tier string, err error) {
	p.closePicker(ctx)
	st, err := p.openPicker(ctx)
	if err != nil {
		return "", "", err
	}
	switch st.Layout {
	case "intelligence":
		for _, r := range st.Tiers {
			if r.Checked {
				tier = r.Label
			}
		}
		model = st.Openers["model"]
	case "power":
		if st, err = p.advanced(ctx, st); err != nil {
			return "", "", err
		}
		model, tier = st.Openers["model"], st.Openers["effort"]
	case "slider":
		for _, e := range p.Site.Efforts {
			if e.Level == st.Level {
				tier = e.Labels[0]
			}
		}
		if text, _, ok := strings.Cut(st.SliderText, ","); ok && !strings.EqualFold(text, tier) {
			return "", "", unconfirmed("tier at "+tier, st.SliderText)
		}
		if st, err = p.advanced(ctx, st); err != nil {
			return "", "", err
		}
		for _, r := range st.Models {
			if r.Checked {
				model = r.Label
			}
		}
	}
	if model == "" || tier == "" {
		return "", "", errs.New(errs.ModelUnavailable, "ChatGPT's picker did not show which model and tier are selected (model %q, tier %q); nothing was sent", model, tier)
	}
	return model, tier, nil
}

// labelIs reports whether the page's text is one of the labels.
func labelIs(text string, labels []string) bool {
	for _, l := range labels {
		if strings.EqualFold(strings.TrimSpace(text), l) {
			return true
		}
	}
	return false
}

// modelIs reports whether a model row's text names one of the labels: the
// label whole, or followed by the row's note ("GPT-5.4 Leaving on July 23").
func modelIs(text string, labels []string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	for _, l := range labels {
		l = strings.ToLower(l)
		if t == l || strings.HasPrefix(t, l+" ") {
			return true
		}
	}
	return false
}

func labels(rows []pickerRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Label
	}
	return out
}

// notOffered is the refusal of a model or tier the page does not list.
func notOffered(what, name string, offered []string) error {
	return errs.New(errs.ModelUnavailable, "ChatGPT's picker offers no %s %q (it offers: %s); nothing was sent", what, name, strings.Join(offered, ", ")).
		WithEvidence(what, name).WithEvidence("offered", strings.Join(offered, ", ")).
		WithHint("ask for one of the %ss the page offers: %s", what, strings.Join(offered, ", "))
}
