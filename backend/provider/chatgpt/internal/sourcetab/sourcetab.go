// Package sourcetab adds files to a ChatGPT project's sources the way a
// person does, on the project page's Sources tab (Tab.Add): "Add sources"
// opens a dialog, its file input takes the files (over CDP, as a file
// picker would), each uploads into a tile, the dialog's confirm button
// ("Upload", "Add" or "Continue") adds the uploaded ones, and the Sources
// list then showing each is the proof. From the providers reference
// ("Tools", "Projects"); the tab's markup is not public, so its selectors
// here are the simulator's (a GAP there), while the tiles, their pending
// signs and the refusals are the site's upload definition (site.Uploads),
// which the settings can override.
package sourcetab

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// The Sources tab as the page shows it: the panel, a source's row (its
// name in aria-label), the words of the button that opens the dialog and
// of the one that confirms it.
var (
	panelSel    = []string{`[role="tabpanel"][aria-label="Sources" i]`, `section[aria-label="Sources" i]`}
	rowSel      = []string{`[data-testid="project-source"]`}
	openWords   = []string{"add sources", "add source", "add files"}
	confirmWord = []string{"upload", "add", "continue"}
	inputSel    = []string{`[role="dialog"] input[type="file"]`, `dialog[open] input[type="file"]`}
)

// The hints of a file not added.
const (
	refusedHint = "the project did not take the file: add a smaller one or one of another type"
	retryHint   = "add it in the project's Sources in the browser, or run again with a longer --timeout"
)

// How long the tab may take to show its "Add sources" (the page loads the
// list first) and the dialog to open after a click.
const (
	panelPatience  = 20 * time.Second
	dialogPatience = 5 * time.Second
)

// Tab drives the Sources tab of a project in Page, with the tiles, pending
// signs and refusals of Uploads, looking every Poll.
type Tab struct {
	Page    *browser.Page
	Uploads site.Uploads
	Poll    time.Duration
}

// state is what stateJS reads of the tab.
type state struct {
	Panel   bool     `json:"panel"`
	Add     bool     `json:"add"`     // the "Add sources" button is shown
	Sources []string `json:"sources"` // the names the list shows
	Dialog  bool     `json:"dialog"`  // a dialog with a file input is open
	Tiles   []string `json:"tiles"`   // the names of the dialog's tiles
	Pending []bool   `json:"pending"` // per tile: still uploading
	Confirm string   `json:"confirm"` // the confirm button's words ("" for none)
	Enabled bool     `json:"enabled"` // the confirm button takes a click
	Refused []string `json:"refused"` // the refusals shown, the site's words
	Marked  bool     `json:"marked"`
}

const stateJS = `(spec, mark) => {
  const vis = (el) => el && el.isConnected && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const words = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
  const all = (root, sels) => {
    const out = [];
    for (const s of sels || []) { try { out.push(...root.querySelectorAll(s)); } catch (e) {} }
    return [...new Set(out)].filter(vis);
  };
  for (const el of document.querySelectorAll('[data-ferry-source]')) el.removeAttribute('data-ferry-source');
  const st = {panel: false, add: false, sources: [], dialog: false, tiles: [], pending: [], confirm: '', enabled: false, refused: [], marked: false};
  const tag = (el) => { if (el) { el.setAttribute('data-ferry-source', '1'); st.marked = true; } };
  const panel = all(document, spec.panel)[0];
  st.panel = !!panel;
  const add = panel ? all(panel, ['button', '[role=button]']).find((b) => spec.open.includes(words(b).toLowerCase())) : null;
  st.add = !!add;
  if (panel) st.sources = all(panel, spec.rows).map((r) => r.getAttribute('aria-label') || r.getAttribute('title') || words(r));
  const dialog = all(document, ['[role=dialog]', 'dialog[open]']).find((d) => d.querySelector('input[type=file]'));
  st.dialog = !!dialog;
  let confirm = null;
  if (dialog) {
    const tiles = all(dialog, spec.tile);
    st.tiles = tiles.map((el) => spec.attr ? (el.getAttribute(spec.attr) || '') : words(el));
    st.pending = tiles.map((el) => all(el, spec.pending).length > 0);
    confirm = all(dialog, ['button', '[role=button]']).find((b) => spec.confirm.includes(words(b).toLowerCase()));
    if (confirm) {
      st.confirm = words(confirm);
      st.enabled = !confirm.disabled && confirm.getAttribute('aria-disabled') !== 'true';
    }
  }
  st.refused = all(document, spec.refused).map(words).filter(Boolean);
  if (mark === 'add') tag(add);
  if (mark === 'confirm') tag(confirm);
  return st;
}`

// Add puts files (each under its own base name, Name) in the sources of
// the project at address: it opens address?tab=sources, the dialog, sets
// the files on its input, waits until each uploaded or was refused,
// confirms the dialog and waits until each shows in the Sources list.
// The uploads and the list have patience between them. It returns the
// files, each with SiteName when the site shows another name (ChatGPT's
// "notes(1).md" for a name its library holds), and per file nil for one
// the list shows, errs.AttachmentRejected with the site's words for one it
// refused, errs.AttachmentUnconfirmed for one that did not finish
// uploading or never showed. The error is for the whole, with nothing
// added: CapabilityMissing for a page that is not the project's;
// ComposerNotFound for a tab without "Add sources", a dialog that never
// opens or has no confirm button; the page's envelopes.
func (t *Tab) Add(ctx context.Context, address string, files []attach.File, patience time.Duration) ([]attach.File, []error, error) {
	if err := t.open(ctx, address); err != nil {
		return nil, nil, err
	}
	st, ok, err := t.until(ctx, panelPatience, func(st state) bool { return st.Add })
	if err != nil {
		return nil, nil, err
	} else if !ok {
		return nil, nil, errs.New(errs.ComposerNotFound, "the project's Sources tab shows no \"Add sources\" button; nothing was uploaded").
			WithEvidence("url", address).WithHint("open the project's Sources in the browser to see why (a plan without projects, a changed page)")
	}
	before, shownBefore := st.Refused, st.Sources
	for try := 0; !st.Dialog && try < 2; try++ {
		if err := t.click(ctx, "add"); err != nil {
			return nil, nil, err
		}
		if st, _, err = t.until(ctx, dialogPatience, func(st state) bool { return st.Dialog }); err != nil {
			return nil, nil, err
		}
	}
	if !st.Dialog {
		return nil, nil, errs.New(errs.ComposerNotFound, "ChatGPT's Add sources dialog did not open; nothing was uploaded").
			WithEvidence("url", address).WithHint("add the files in the project's Sources in the browser by hand, or retry")
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	if err := t.Page.SetFiles(ctx, inputSel, paths); err != nil {
		return nil, nil, err
	}
	out := append([]attach.File(nil), files...)
	verdicts := make([]error, len(files))
	deadline := time.Now().Add(patience)
	st, err = t.uploads(ctx, out, verdicts, before, deadline)
	if err != nil {
		return nil, nil, err
	}
	var ready []int
	for i := range out {
		if verdicts[i] == nil {
			ready = append(ready, i)
		}
	}
	if len(ready) == 0 {
		return out, verdicts, nil
	}
	if st, _, err = t.until(ctx, time.Until(deadline), func(st state) bool { return st.Enabled }); err != nil {
		return nil, nil, err
	}
	switch {
	case st.Confirm == "":
		return nil, nil, errs.New(errs.ComposerNotFound, "ChatGPT's Add sources dialog has no %s button; nothing was added", strings.Join(confirmWord, "/")).
			WithHint("add the files in the project's Sources in the browser by hand")
	case !st.Enabled:
		for _, i := range ready {
			verdicts[i] = errs.New(errs.AttachmentUnconfirmed, "%s uploaded, but the dialog's %q button never took a click; it was not added", out[i].Name, st.Confirm).
				WithEvidence("file", out[i].Name).WithHint(retryHint)
		}
		return out, verdicts, nil
	}
	if err := t.click(ctx, "confirm"); err != nil {
		return nil, nil, err
	}
	if err := t.listed(ctx, out, verdicts, ready, shownBefore, st.Refused, deadline); err != nil {
		return nil, nil, err
	}
	return out, verdicts, nil
}

// open shows the project's Sources tab, proven by the address the page
// then shows.
func (t *Tab) open(ctx context.Context, address string) error {
	want, err := url.Parse(address)
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "the project's address %q does not parse", address)
	}
	q := want.Query()
	q.Set("tab", "sources")
	want.RawQuery = q.Encode()
	if err := t.Page.Navigate(ctx, want.String()); err != nil {
		return err
	}
	info, err := t.Page.Info(ctx)
	if err != nil {
		return err
	}
	if u, err := url.Parse(info.URL); err != nil || u.Host != want.Host || u.Path != want.Path || u.Query().Get("tab") != "sources" {
		return errs.New(errs.CapabilityMissing, "ChatGPT did not open the Sources of the project at %s (the tab shows another page); nothing was uploaded", address).
			WithHint("open the project in the browser to see why (access, a deleted project)")
	}
	return nil
}

// uploads waits until each file's tile is ready or the file was refused,
// or deadline; verdicts receives each file's refusal or that it never got
// ready, out the name a tile shows in place of a file's.
func (t *Tab) uploads(ctx context.Context, out []attach.File, verdicts []error, before []string, deadline time.Time) (state, error) {
	names := make([]string, len(out))
	for i, f := range out {
		names[i] = f.Name
	}
	seen := append([]string(nil), before...)
	for {
		st, err := t.state(ctx, "")
		if err != nil {
			return st, err
		}
		at := place(names, st.Tiles, nil, t.Uploads.RenamesRepeats)
		for _, w := range fresh(st.Refused, seen) {
			seen = append(seen, w)
			if k := refusedFile(w, names, at, verdicts); k >= 0 {
				verdicts[k] = errs.New(errs.AttachmentRejected, "ChatGPT refused %s: %q; it was not added to the project", names[k], w).
					WithEvidence("file", names[k]).WithEvidence("site_words", w).WithHint(refusedHint)
			}
		}
		waiting := ""
		for i := range out {
			if verdicts[i] != nil {
				continue
			}
			if at[i] < 0 || st.Pending[at[i]] {
				waiting = names[i]
				continue
			}
			if shown := st.Tiles[at[i]]; shown != names[i] {
				out[i].SiteName = shown
			}
		}
		if waiting == "" {
			return st, nil
		}
		if time.Now().After(deadline) {
			for i := range out {
				if verdicts[i] == nil && (at[i] < 0 || st.Pending[at[i]]) {
					verdicts[i] = errs.New(errs.AttachmentUnconfirmed, "%s did not finish uploading in ChatGPT's Add sources dialog in time; it was not added", names[i]).
						WithEvidence("file", names[i]).WithHint(retryHint)
				}
			}
			// The dialog takes no confirmation while a file uploads.
			for i := range out {
				if verdicts[i] == nil {
					verdicts[i] = errs.New(errs.AttachmentUnconfirmed, "%s uploaded, but the dialog could not be confirmed while %s still uploaded; it was not added", names[i], waiting).
						WithEvidence("file", names[i]).WithHint(retryHint)
				}
			}
			return st, nil
		}
		if err := t.wait(ctx, "uploading the project's sources"); err != nil {
			return st, err
		}
	}
}

// listed waits until each of the ready files shows as a new row of the
// Sources list (not among shownBefore), or a refusal names it, or
// deadline.
func (t *Tab) listed(ctx context.Context, out []attach.File, verdicts []error, ready []int, shownBefore, seen []string, deadline time.Time) error {
	names := make([]string, len(ready))
	for j, i := range ready {
		names[j] = out[i].Name
		if out[i].SiteName != "" {
			names[j] = out[i].SiteName
		}
	}
	for {
		st, err := t.state(ctx, "")
		if err != nil {
			return err
		}
		at := place(names, st.Sources, shownBefore, t.Uploads.RenamesRepeats)
		for _, w := range fresh(st.Refused, seen) {
			seen = append(seen, w)
			if j := quoted(w, names, func(j int) bool { return verdicts[ready[j]] == nil && at[j] < 0 }); j >= 0 {
				verdicts[ready[j]] = errs.New(errs.AttachmentRejected, "ChatGPT refused to add %s to the project: %q", names[j], w).
					WithEvidence("file", names[j]).WithEvidence("site_words", w).WithHint(refusedHint)
			}
		}
		done := true
		for j, i := range ready {
			if verdicts[i] == nil && at[j] < 0 {
				done = false
			}
			if at[j] >= 0 && st.Sources[at[j]] != out[i].Name {
				out[i].SiteName = st.Sources[at[j]]
			}
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			for j, i := range ready {
				if verdicts[i] == nil && at[j] < 0 {
					verdicts[i] = errs.New(errs.AttachmentUnconfirmed, "%s was uploaded and the dialog confirmed, but it never showed in the project's Sources in time", out[i].Name).
						WithEvidence("file", out[i].Name).WithHint("look at the project's Sources in the browser: it may have been added late")
				}
			}
			return nil
		}
		if err := t.wait(ctx, "waiting for the project's sources"); err != nil {
			return err
		}
	}
}

// refusedFile is the file refusal w is about: of the files still
// undecided the one it quotes (quoted), else the first with no tile (a
// refused file's tile goes away); -1 for none.
func refusedFile(w string, names []string, at []int, verdicts []error) int {
	if k := quoted(w, names, func(k int) bool { return verdicts[k] == nil }); k >= 0 {
		return k
	}
	for k := range names {
		if verdicts[k] == nil && at[k] < 0 {
			return k
		}
	}
	return -1
}

// quoted is, of the names k for which open(k), the longest that w quotes
// ("aa.md" over "a.md"); -1 for none.
func quoted(w string, names []string, open func(k int) bool) int {
	best := -1
	for k, n := range names {
		if open(k) && strings.Contains(w, n) && (best < 0 || len(n) > len(names[best])) {
			best = k
		}
	}
	return best
}

func (t *Tab) state(ctx context.Context, mark string) (state, error) {
	spec := map[string]any{"panel": panelSel, "rows": rowSel, "open": openWords, "confirm": confirmWord,
		"tile": t.Uploads.Tile, "attr": t.Uploads.NameAttr, "pending": t.Uploads.Pending, "refused": t.Uploads.Refused}
	var st state
	err := t.Page.EvalInto(ctx, &st, stateJS, spec, mark)
	if len(st.Pending) != len(st.Tiles) {
		st.Pending = make([]bool, len(st.Tiles))
	}
	return st, err
}

// click tags what mark names and gives it a trusted click.
func (t *Tab) click(ctx context.Context, mark string) error {
	st, err := t.state(ctx, mark)
	if err != nil || !st.Marked {
		return err
	}
	_, err = t.Page.Click(ctx, `[data-ferry-source="1"]`)
	return err
}

// until polls the tab until ok holds or patience runs out.
func (t *Tab) until(ctx context.Context, patience time.Duration, ok func(state) bool) (state, bool, error) {
	deadline := time.Now().Add(patience)
	for {
		st, err := t.state(ctx, "")
		if err != nil || ok(st) {
			return st, err == nil, err
		}
		if time.Now().After(deadline) {
			return st, false, nil
		}
		if err := t.wait(ctx, "waiting for the project's Sources tab"); err != nil {
			return st, false, err
		}
	}
}

func (t *Tab) wait(ctx context.Context, what string) error {
	select {
	case <-ctx.Done():
		return provider.ContextErr(ctx, what)
	case <-time.After(t.Poll):
		return nil
	}
}

// place finds, for each of names, a new entry of shown (one not counted
// in before) of that name, else with renames of its site's rename
// "stem(N).ext"; -1 for none. Each entry is one name's at most.
func place(names, shown, before []string, renames bool) []int {
	fresh := make([]bool, len(shown))
	left := map[string]int{}
	for _, b := range before {
		left[b]++
	}
	for i, s := range shown {
		if left[s] > 0 {
			left[s]--
			continue
		}
		fresh[i] = true
	}
	out := make([]int, len(names))
	take := func(k int, ok func(string) bool) {
		for i, s := range shown {
			if fresh[i] && ok(s) {
				out[k], fresh[i] = i, false
				return
			}
		}
	}
	for k, n := range names {
		out[k] = -1
		take(k, func(s string) bool { return s == n })
	}
	for k, n := range names {
		if out[k] < 0 && renames {
			take(k, func(s string) bool { return renameOf(s, n) })
		}
	}
	return out
}

// renameOf reports whether s is the site's rename "stem(N).ext" of name
// "stem.ext".
func renameOf(s, name string) bool {
	stem, ext := name, ""
	if dot := strings.LastIndexByte(name, '.'); dot > 0 {
		stem, ext = name[:dot], name[dot:]
	}
	mid, ok := strings.CutPrefix(s, stem+"(")
	if !ok {
		return false
	}
	num, ok := strings.CutSuffix(mid, ")"+ext)
	return ok && num != "" && strings.Trim(num, "0123456789") == ""
}

// fresh is the texts of now not counted in before.
func fresh(now, before []string) []string {
	left := map[string]int{}
	for _, b := range before {
		left[b]++
	}
	var out []string
	for _, n := range now {
		if left[n] > 0 {
			left[n]--
			continue
		}
		out = append(out, n)
	}
	return out
}
