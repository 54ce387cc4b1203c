package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// The ways a person's browser (or an automation) puts text into a composer.

// typeInsertText clicks the editor like a person, focuses it, collapses the
// selection to the end and inserts text with CDP Input.insertText (trusted).
func typeInsertText(t *testing.T, p *rod.Page, sel, text string) {
	t.Helper()
	el := p.MustElement(sel)
	el.MustClick()
	p.MustEval(`(sel) => { const el = document.querySelector(sel); el.focus();
		const r = document.createRange(); r.selectNodeContents(el); r.collapse(false);
		const s = getSelection(); s.removeAllRanges(); s.addRange(r); }`, sel)
	if err := p.InsertText(text); err != nil {
		t.Fatalf("insert text: %v", err)
	}
}

// typeExecCommand selects the editor's contents and runs execCommand('insertText').
func typeExecCommand(t *testing.T, p *rod.Page, sel, text string) {
	t.Helper()
	p.MustElement(sel).MustClick()
	p.MustEval(`(sel, text) => { const el = document.querySelector(sel); el.focus();
		const r = document.createRange(); r.selectNodeContents(el);
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
		document.execCommand('insertText', false, text); }`, sel, text)
}

// typeNativeSetter sets a textarea through the prototype's value setter and
// dispatches input and change, as React needs.
func typeNativeSetter(t *testing.T, p *rod.Page, sel, text string) {
	t.Helper()
	p.MustElement(sel).MustClick()
	p.MustEval(`(sel, text) => { const el = document.querySelector(sel);
		const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
		set.call(el, text);
		el.dispatchEvent(new Event('input', {bubbles: true}));
		el.dispatchEvent(new Event('change', {bubbles: true})); }`, sel, text)
}

// typeNaive writes .value or .textContent and fires no event: the frameworks
// of the real sites do not notice.
func typeNaive(t *testing.T, p *rod.Page, sel, text string) {
	t.Helper()
	p.MustEval(`(sel, text) => { const el = document.querySelector(sel);
		if ('value' in el && el.tagName === 'TEXTAREA') el.value = text; else el.textContent = text; }`, sel, text)
}

// clickTrusted clicks the first element matching sel with a trusted mouse event.
func clickTrusted(t *testing.T, p *rod.Page, sel string) {
	t.Helper()
	el, err := p.Timeout(10 * time.Second).Element(sel)
	if err != nil {
		t.Fatalf("find %s: %v", sel, err)
	}
	if err := el.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// waitText waits until sel's innerText satisfies ok, returning the text.
func waitText(t *testing.T, p *rod.Page, sel string, timeout time.Duration, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		res, err := p.Eval(`(sel) => { const els = document.querySelectorAll(sel); return els.length ? els[els.length-1].innerText : null }`, sel)
		if err == nil && !res.Value.Nil() {
			last = res.Value.Str()
			if ok(last) {
				return last
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("wait for %s: last text %q", sel, last)
	return ""
}

// exists reports whether sel matches an element now.
func exists(p *rod.Page, sel string) bool {
	return p.MustEval(`(sel) => !!document.querySelector(sel)`, sel).Bool()
}

// waitExists waits for sel to match.
func waitExists(t *testing.T, p *rod.Page, sel string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if exists(p, sel) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("wait for %s: not found after %s", sel, timeout)
}

func contains(sub string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, sub) }
}

// waitURL waits until the page's address ends with suffix.
func waitURL(t *testing.T, p *rod.Page, suffix string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		if last = p.MustEval(`() => location.href`).Str(); strings.HasSuffix(last, suffix) {
			return
		}
		<-time.After(20 * time.Millisecond) // the page's address changes without an event to wait on
	}
	t.Fatalf("wait for an address ending %s: last %s", suffix, last)
}
