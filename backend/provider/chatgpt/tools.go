package chatgpt

import (
	"cmp"
	"context"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// The composer's tools menu (the reference's "Composer tools menu" and
// "Tools"): the "+" opens a menu whose rows switch a tool on; the chosen
// tool shows as a pill in the editor within about 5 s, else the row is
// chosen once more (a Deep Research prompt sent without its pill goes out
// as a plain prompt). Never a slash command: that is typed as text.
const (
	menuPatience = 3 * time.Second
	pillPatience = 5 * time.Second
)

var escapeKey = browser.Key{Key: "Escape", Code: "Escape", KeyCode: 27}

// toolState is the composer's tools menu and pills as the page shows them.
type toolState struct {
	Plus   bool     `json:"plus"`   // the "+" is on the page
	Open   bool     `json:"open"`   // a menu is open
	Rows   []string `json:"rows"`   // the open menus' rows, their words
	More   bool     `json:"more"`   // a row opens a submenu ("More")
	Pills  []string `json:"pills"`  // the pills in the composer, their words
	Chosen bool     `json:"chosen"` // a pill is the tool's
	Marked bool     `json:"marked"` // the element asked for is tagged
}

// toolMark names what toolsJS tags for a trusted click: "plus", "more",
// "row" (the tool's row) or "remove" (the remove button of a pill not the
// tool's).
type toolMark struct {
	Kind string `json:"kind"`
}

const toolsJS = `(tool, mark) => {
  const PILL = '[data-inline-selection-pill]';
  const words = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
  const low = (s) => s.toLowerCase();
  for (const el of document.querySelectorAll('[data-ferry-tool]')) el.removeAttribute('data-ferry-tool');
  const tag = (el) => { if (el) { el.setAttribute('data-ferry-tool', '1'); st.marked = true; } };
  const st = {plus: false, open: false, rows: [], more: false, pills: [], chosen: false, marked: false};
  const plus = document.querySelector('form button[aria-label="Add files and more"], [data-testid="composer-plus-btn"]');
  st.plus = !!plus;
  const menus = Array.from(document.querySelectorAll('[role=menu][data-state=open], [role=menu]:not([data-state])'))
    .filter((m) => m.getClientRects().length > 0 && !m.closest('[inert]'));
  st.open = menus.length > 0;
  const rows = menus.flatMap((m) => Array.from(m.querySelectorAll('[role=menuitem], [role=menuitemradio]')));
  // A row's title is its first line of words: the row also shows a note.
  const title = (r) => {
    const first = Array.from(r.querySelectorAll('span, div')).find((c) => c.children.length === 0 && words(c) !== '');
    return first ? words(first) : words(r);
  };
  st.rows = rows.map(title);
  const labels = tool.labels.map(low);
  const row = rows.find((r) => labels.includes(low(title(r))) || labels.includes(low(r.getAttribute('aria-label') || '')));
  const more = rows.find((r) => (r.hasAttribute('data-has-submenu') || r.getAttribute('aria-haspopup') === 'menu') && low(title(r)) === 'more');
  st.more = !!more;
  const pills = Array.from(document.querySelectorAll('form ' + PILL + ', [contenteditable] ' + PILL));
  const mine = (p) => (tool.hint && p.getAttribute('data-system-hint-type') === tool.hint) ||
    (!tool.hint && (labels.includes(low(words(p).replace(/\s*×$/, ''))) ||
      !!p.querySelector('button[aria-label="Remove ' + tool.labels[0] + '" i]')));
  st.pills = pills.map((p) => words(p).replace(/\s*×$/, ''));
  st.chosen = pills.some(mine);
  if (!mark) return st;
  switch (mark.kind) {
    case 'plus': tag(plus); break;
    case 'row': tag(row); break;
    case 'more': tag(more); break;
    case 'remove': { const p = pills.find((p) => !mine(p)); tag(p && p.querySelector('button[aria-label^="Remove"]')); break; }
  }
  return st;
}`

// toolSpec is what toolsJS is given of a tool.
type toolSpec struct {
	Labels []string `json:"labels"`
	Hint   string   `json:"hint"`
}

// ChooseTool implements provider.ToolChooser with ChatGPT's tools menu,
// after the prompt is composed: a pill of another tool is removed, the
// menu opened with a trusted click, the tool's row found (under "More" too)
// and chosen, and the tool's pill awaited (the row chosen once more if it
// does not show); then the composer must still hold prompt. Whatever
// fails, nothing is sent.
func (a *Adapter) ChooseTool(ctx context.Context, t site.Tool, prompt string) (string, error) {
	spec := toolSpec{Labels: t.Labels, Hint: t.Hint}
	a.research.chosen = t.Request == ResearchHint
	st, err := a.toolState(ctx, spec, nil)
	if err != nil {
		return "", err
	}
	for range 3 {
		if len(st.Pills) == 0 || st.Chosen && len(st.Pills) == 1 {
			break
		}
		if st, err = a.toolClick(ctx, spec, "remove"); err != nil {
			return "", err
		}
		st, _, err = a.toolsUntil(ctx, spec, menuPatience, func(st toolState) bool { return !st.Marked })
		if err != nil {
			return "", err
		}
	}
	for try := 0; !st.Chosen && try < 2; try++ {
		if st, err = a.chooseRow(ctx, t, spec); err != nil {
			a.closeTools(ctx, spec)
			return "", err
		}
		if st, _, err = a.toolsUntil(ctx, spec, pillPatience, func(st toolState) bool { return st.Chosen }); err != nil {
			return "", err
		}
	}
	if !st.Chosen {
		return "", errs.New(errs.ToolUnavailable, "ChatGPT showed no %s pill in the composer after its row was chosen twice (pills: %s); nothing was sent",
			t.Labels[0], cmp.Or(strings.Join(st.Pills, ", "), "none")).
			WithEvidence("tool", t.Name).WithEvidence("sent", "false").WithEvidence("pills", strings.Join(st.Pills, " | ")).
			WithHint("switch %s on in the ChatGPT tab by hand and check it shows, or ask without --tool", t.Labels[0])
	}
	if len(st.Pills) > 1 {
		return "", errs.New(errs.ToolUnavailable, "ChatGPT's composer shows more tools than %s (pills: %s) and they could not be removed; nothing was sent",
			t.Labels[0], strings.Join(st.Pills, ", ")).WithEvidence("tool", t.Name).WithEvidence("sent", "false").WithEvidence("pills", strings.Join(st.Pills, " | "))
	}
	if err := a.VerifyComposer(ctx, prompt); err != nil {
		e := errs.From(err)
		if e.Code != errs.ComposerMismatch && e.Code != errs.PromptTooLarge {
			return "", err
		}
		out := errs.New(errs.ComposerMismatch, "choosing %s changed ChatGPT's composer, which no longer holds the prompt; nothing was sent", t.Labels[0]).
			WithEvidence("tool", t.Name).WithEvidence("sent", "false").WithHint("retry; if it keeps happening, choose %s in the tab by hand and ask there", t.Labels[0])
		for k, v := range e.Evidence {
			out = out.WithEvidence(k, v)
		}
		return "", out
	}
	return t.Labels[0], nil
}

// chooseRow opens the menu, finds the tool's row (in "More" if it is not
// among the first rows) and clicks it.
func (a *Adapter) chooseRow(ctx context.Context, t site.Tool, spec toolSpec) (toolState, error) {
	st, err := a.toolState(ctx, spec, nil)
	if err != nil {
		return st, err
	}
	if !st.Open {
		if !st.Plus {
			return st, errs.New(errs.ToolUnavailable, "ChatGPT's composer shows no \"Add files and more\" button, so %s cannot be chosen; nothing was sent", t.Labels[0]).
				WithEvidence("tool", t.Name).WithEvidence("sent", "false").WithHint("ask without --tool; `ferry doctor --sites` shows what the page has")
		}
		if st, err = a.toolClick(ctx, spec, "plus"); err != nil {
			return st, err
		}
		st, ok, err := a.toolsUntil(ctx, spec, menuPatience, func(st toolState) bool { return st.Open })
		if err != nil {
			return st, err
		}
		if !ok {
			return st, errs.New(errs.ToolUnavailable, "ChatGPT's tools menu did not open; nothing was sent").WithEvidence("tool", t.Name).WithEvidence("sent", "false").
				WithHint("retry; if it keeps failing, ask without --tool")
		}
	}
	if st, err = a.toolClick(ctx, spec, "row"); err != nil || st.Marked {
		return st, err
	}
	if st.More {
		if _, err := a.toolClick(ctx, spec, "more"); err != nil {
			return st, err
		}
		var found bool
		if st, found, err = a.toolsUntil(ctx, spec, menuPatience, func(st toolState) bool { return hasRow(st, t) }); err != nil {
			return st, err
		} else if found {
			return a.toolClick(ctx, spec, "row")
		}
	}
	return st, errs.New(errs.ToolUnavailable, "ChatGPT's tools menu has no %q row (it shows: %s); nothing was sent", t.Labels[0], cmp.Or(strings.Join(st.Rows, ", "), "no rows")).
		WithEvidence("tool", t.Name).WithEvidence("sent", "false").WithEvidence("rows", strings.Join(st.Rows, " | ")).
		WithHint("the account's plan may lack %s: check the menu in the ChatGPT tab, or ask without --tool", t.Labels[0])
}

func hasRow(st toolState, t site.Tool) bool {
	for _, r := range st.Rows {
		for _, l := range t.Labels {
			if strings.EqualFold(r, l) {
				return true
			}
		}
	}
	return false
}

// toolClick tags what kind names and gives it a trusted click; the state
// says whether there was one (Marked).
func (a *Adapter) toolClick(ctx context.Context, spec toolSpec, kind string) (toolState, error) {
	st, err := a.toolState(ctx, spec, &toolMark{Kind: kind})
	if err != nil || !st.Marked {
		return st, err
	}
	_, err = a.Page.Click(ctx, `[data-ferry-tool="1"]`)
	return st, err
}

// closeTools closes an open menu with Escape, best effort.
func (a *Adapter) closeTools(ctx context.Context, spec toolSpec) {
	if st, err := a.toolState(ctx, spec, nil); err != nil || !st.Open {
		return
	}
	if err := a.Page.Press(ctx, escapeKey); err != nil {
		return
	}
	_, _, _ = a.toolsUntil(ctx, spec, menuPatience, func(st toolState) bool { return !st.Open })
}

func (a *Adapter) toolState(ctx context.Context, spec toolSpec, mark *toolMark) (toolState, error) {
	var st toolState
	err := a.Page.EvalInto(ctx, &st, toolsJS, spec, mark)
	return st, err
}

// toolsUntil polls the menu and pills until ok holds or patience runs out.
func (a *Adapter) toolsUntil(ctx context.Context, spec toolSpec, patience time.Duration, ok func(toolState) bool) (toolState, bool, error) {
	deadline := time.Now().Add(patience)
	for {
		st, err := a.toolState(ctx, spec, nil)
		if err != nil || ok(st) {
			return st, err == nil, err
		}
		if time.Now().After(deadline) {
			return st, false, nil
		}
		select {
		case <-ctx.Done():
			return st, false, provider.ContextErr(ctx, "choosing the ChatGPT tool")
		case <-time.After(a.Poll):
		}
	}
}
