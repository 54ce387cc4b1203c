package browser

import (
	"context"
	"errors"
	"strings"
	"unicode"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Strategy is a way of putting text into a site's composer so that the
// site's framework notices it. Sites differ; the reference lists which one
// each needs.
type Strategy int

// The typing strategies, in the reference's order of preference.
const (
	// InsertText: a trusted click at the element's centre, focus, the
	// selection collapsed to the end, then CDP Input.insertText. The browser
	// itself fires beforeinput/input, as for a keyboard. ProseMirror, Tiptap
	// and React contenteditables.
	InsertText Strategy = iota + 1
	// ExecCommand: focus, select the element's contents, then
	// document.execCommand('insertText'), which replaces them and fires the
	// editing events; followed by an extra input event unless
	// WithoutExtraInput is given. ProseMirror, Quill, Lexical.
	ExecCommand
	// NativeSetter: for a <textarea> or <input>, the prototype's value
	// setter (bypassing a framework's instance-level value tracking) then
	// input and change events. React-controlled textareas.
	NativeSetter
	// PasteEvent: set textContent (or value), then dispatch an input event
	// of type insertFromPaste carrying the text. The last resort.
	PasteEvent
)

func (s Strategy) String() string {
	switch s {
	case InsertText:
		return "insert-text"
	case ExecCommand:
		return "exec-command"
	case NativeSetter:
		return "native-setter"
	case PasteEvent:
		return "paste-event"
	}
	return "unknown"
}

// TypeOption adjusts Type.
type TypeOption func(*typeConfig)

type typeConfig struct {
	noExtraInput bool
}

// WithoutExtraInput stops ExecCommand from dispatching its extra input
// event. Lexical (Kimi) treats a second data-bearing input event as new text
// and would duplicate the prompt.
func WithoutExtraInput() TypeOption { return func(c *typeConfig) { c.noExtraInput = true } }

// Type puts text into the first visible element matching sel with the given
// strategy. InsertText appends at the end of what is there; the others
// replace the contents (use Clear first for InsertText when a stale draft
// may be present). Type never presses Enter. Check the result with Verify.
// Errors: ComposerNotFound when nothing matches or the element cannot take
// focus or text; BadInput for an unknown strategy or NativeSetter on an
// element that is not a textarea or input.
func (p *Page) Type(ctx context.Context, sel, text string, s Strategy, opts ...TypeOption) error {
	var cfg typeConfig
	for _, o := range opts {
		o(&cfg)
	}
	switch s {
	case InsertText:
		return p.typeInsertText(ctx, sel, text)
	case ExecCommand:
		return p.typeScript(ctx, sel, s, execCommandJS, text, !cfg.noExtraInput)
	case NativeSetter:
		return p.typeScript(ctx, sel, s, nativeSetterJS, text, false)
	case PasteEvent:
		return p.typeScript(ctx, sel, s, pasteEventJS, text, false)
	}
	return errs.New(errs.BadInput, "unknown typing strategy %d", int(s))
}

type typeResult struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
}

func (r typeResult) err(sel string, s string) error {
	switch {
	case r.OK:
		return nil
	case r.Reason == "not-found":
		return notFound(sel)
	case r.Reason == "not-a-text-field":
		return errs.New(errs.BadInput, "the %s strategy needs a textarea or input, and %s is neither", s, sel).
			WithEvidence("selector", sel)
	}
	return errs.New(errs.ComposerNotFound, "the composer %s would not take text (%s)", sel, r.Reason).
		WithEvidence("selector", sel).WithEvidence("strategy", s).WithEvidence("reason", r.Reason)
}

// focusEndJS focuses the element and collapses the selection to its end, as
// a user's click at the end of the text would.
const focusEndJS = `(sel) => {` + findJS + `
  const el = __find(sel);
  if (!el) return {ok: false, reason: 'not-found'};
  el.focus();
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
    const n = el.value.length;
    el.setSelectionRange(n, n);
  } else {
    const r = document.createRange();
    r.selectNodeContents(el);
    r.collapse(false);
    const s = getSelection();
    s.removeAllRanges();
    s.addRange(r);
  }
  const a = document.activeElement;
  if (!(a === el || el.contains(a))) return {ok: false, reason: 'focus refused'};
  return {ok: true};
}`

func (p *Page) typeInsertText(ctx context.Context, sel, text string) error {
	// One hold for the click and the text: the tab is shown once.
	return p.withInput(ctx, func() error { return p.clickAndInsert(ctx, sel, text) })
}

func (p *Page) clickAndInsert(ctx context.Context, sel, text string) error {
	// ProseMirror and React only take text after a real pointer
	// interaction; a covered composer is clicked anyway only if what covers
	// it is inside it (locate checks), so a modal is never dismissed here.
	// A press that never reached the page is made up for by the focus below.
	// In the tab a headful window shows, a press would raise the window
	// (see keyclick.go): there the focus below is the click.
	if !p.inFront() {
		if _, _, err := p.pressAimed(ctx, sel); err != nil && !errors.Is(err, ErrNotDelivered) {
			return err
		}
	}
	var r typeResult
	if err := p.EvalInto(ctx, &r, focusEndJS, sel); err != nil {
		return err
	}
	if err := r.err(sel, InsertText.String()); err != nil {
		return err
	}
	return p.Exec(ctx, "Input.insertText", proto.InputInsertText{Text: text}, nil)
}

func (p *Page) typeScript(ctx context.Context, sel string, s Strategy, js, text string, extra bool) error {
	var r typeResult
	if err := p.EvalInto(ctx, &r, js, sel, text, extra); err != nil {
		return err
	}
	return r.err(sel, s.String())
}

const execCommandJS = `(sel, text, extra) => {` + findJS + `
  const el = __find(sel);
  if (!el) return {ok: false, reason: 'not-found'};
  el.focus();
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
    el.select();
  } else {
    const r = document.createRange();
    r.selectNodeContents(el);
    const s = getSelection();
    s.removeAllRanges();
    s.addRange(r);
  }
  if (!document.execCommand('insertText', false, text)) return {ok: false, reason: 'execCommand refused'};
  if (extra) el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertText', data: text}));
  return {ok: true};
}`

const nativeSetterJS = `(sel, text) => {` + findJS + `
  const el = __find(sel);
  if (!el) return {ok: false, reason: 'not-found'};
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
    : el instanceof HTMLInputElement ? HTMLInputElement.prototype : null;
  if (!proto) return {ok: false, reason: 'not-a-text-field'};
  el.focus();
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, text);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return {ok: true};
}`

const pasteEventJS = `(sel, text) => {` + findJS + `
  const el = __find(sel);
  if (!el) return {ok: false, reason: 'not-found'};
  el.focus();
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) el.value = text;
  else el.textContent = text;
  el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste', data: text}));
  return {ok: true};
}`

// Clear empties the element the way a user's select-all and delete would,
// so the framework notices: execCommand('delete') for a contenteditable, the
// native setter plus input for a text field. It fails with ComposerNotFound
// when nothing matches.
func (p *Page) Clear(ctx context.Context, sel string) error {
	var r typeResult
	if err := p.EvalInto(ctx, &r, `(sel) => {`+findJS+`
  const el = __find(sel);
  if (!el) return {ok: false, reason: 'not-found'};
  el.focus();
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, '');
    el.dispatchEvent(new Event('input', {bubbles: true}));
    return {ok: true};
  }
  const r = document.createRange();
  r.selectNodeContents(el);
  const s = getSelection();
  s.removeAllRanges();
  s.addRange(r);
  if (el.textContent !== '') document.execCommand('delete', false);
  return {ok: true};
}`, sel); err != nil {
		return err
	}
	return r.err(sel, "clear")
}

// ReadBack returns the text now in the first visible element matching sel:
// value for a textarea or input, innerText otherwise. ComposerNotFound when
// nothing matches.
func (p *Page) ReadBack(ctx context.Context, sel string) (string, error) {
	var r struct {
		Found bool   `json:"found"`
		Text  string `json:"text"`
	}
	if err := p.EvalInto(ctx, &r, `(sel) => {`+findJS+`
  const el = __find(sel);
  if (!el) return {found: false};
  // An inline selection pill (a tool chosen in ChatGPT's editor) is not
  // part of the prompt: an editor holding one is read without it.
  const PILL = '[data-inline-selection-pill]';
  const free = (n) => {
    if (n.nodeType === 3) return n.data;
    if (n.nodeType !== 1 || n.matches(PILL)) return '';
    if (n.tagName === 'BR') return '\n';
    let s = '';
    for (const c of n.childNodes) s += free(c);
    return /^(P|DIV|LI|H[1-6]|PRE|BLOCKQUOTE)$/.test(n.tagName) ? s + '\n' : s;
  };
  const t = (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) ? el.value
    : el.querySelector(PILL) ? free(el).replace(/\n$/, '') : el.innerText;
  return {found: true, text: t};
}`, sel); err != nil {
		return "", err
	}
	if !r.Found {
		return "", notFound(sel)
	}
	return r.Text, nil
}

// Verify reads the composer back and compares it with want, ignoring
// differences of whitespace only (editors render paragraphs and line breaks
// their own way). It returns the text read, and: nil on a match;
// PromptTooLarge when the composer holds a truncated prefix of want (a
// length limit cut it); ComposerMismatch for any other difference, with the
// offset of the first difference as evidence (never the text itself).
func (p *Page) Verify(ctx context.Context, sel, want string) (string, error) {
	got, err := p.ReadBack(ctx, sel)
	if err != nil {
		return "", err
	}
	return got, compareComposer(got, want)
}

func compareComposer(got, want string) error {
	g, w := []rune(normalizeSpace(got)), []rune(normalizeSpace(want))
	if string(g) == string(w) {
		return nil
	}
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	if i == len(g) && len(g) > 0 && len(g) < len(w) {
		return errs.New(errs.PromptTooLarge, "the composer kept only %d of the prompt's %d characters", len(g), len(w)).
			WithEvidence("kept_chars", itoa(len(g))).WithEvidence("prompt_chars", itoa(len(w)))
	}
	return errs.New(errs.ComposerMismatch, "the composer holds %d characters that differ from the %d-character prompt at character %d",
		len(g), len(w), i).
		WithEvidence("composer_chars", itoa(len(g))).WithEvidence("prompt_chars", itoa(len(w))).
		WithEvidence("first_difference_at", itoa(i))
}

// normalizeSpace collapses every run of whitespace (including NBSP, which
// contenteditables put in for trailing spaces) to one space and trims.
func normalizeSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\u00a0' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
