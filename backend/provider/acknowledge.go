package provider

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/site"
)

// InterstitialActor is implemented by adapters that can look for an
// interstitial and answer one by clicking its button (the rate-limit
// modal's "Got it"). The interstitial policies of the job runner use it;
// an adapter without it gets no policy that needs a click.
type InterstitialActor interface {
	// Interstitial takes a snapshot of the page and runs the detector.
	Interstitial(ctx context.Context) (interstitial.Result, error)
	// Acknowledge clicks, with a trusted click, the visible button whose
	// text is label (case and surrounding space ignored) inside a dialog,
	// alert or the site's error text. Errors: ComposerNotFound (the
	// browser's "no visible element" code) when no such button is visible;
	// the browser's envelopes.
	Acknowledge(ctx context.Context, label string) error
}

// acknowledgeJS tags the visible button labelled want inside a notice so
// that a trusted click can target exactly it. Only notices are searched:
// a button of the same name elsewhere on the page is not the answer.
const acknowledgeJS = `(want, errorSels) => {
  const vis = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const norm = (s) => (s || '').trim().toLowerCase();
  const scopes = ["[role='dialog']", "[role='alertdialog']", "[role='alert']"].concat(errorSels || []);
  document.querySelectorAll('[data-ferry-ack]').forEach((e) => e.removeAttribute('data-ferry-ack'));
  for (const s of scopes) {
    let boxes = [];
    try { boxes = Array.from(document.querySelectorAll(s)).filter(vis); } catch (e) { continue; }
    for (let i = boxes.length - 1; i >= 0; i--) {
      const box = boxes[i];
      const cands = Array.from(box.querySelectorAll('button, a, [role="button"]')).filter(vis);
      let parent = box.parentElement;
      // A turn's error text sits beside its button, not around it.
      if (parent) cands.push(...Array.from(parent.querySelectorAll('button, a, [role="button"]')).filter(vis));
      const hit = cands.find((b) => norm(b.innerText || b.textContent) === norm(want));
      if (hit) { hit.setAttribute('data-ferry-ack', '1'); return true; }
    }
  }
  return false;
}`

// Acknowledge implements InterstitialActor.
func (w *Web) Acknowledge(ctx context.Context, label string) error {
	var found bool
	if err := w.Page.EvalInto(ctx, &found, acknowledgeJS, label, w.Env.Site.Selector(site.RoleErrorText)); err != nil {
		return err
	}
	if !found {
		return errs.New(errs.ComposerNotFound, "no visible %q button in a %s notice", label, w.Env.Site.Name).
			WithEvidence("label", label)
	}
	if _, err := w.Page.Click(ctx, `[data-ferry-ack="1"]`); err != nil {
		return err
	}
	return nil
}

// AckLabel is the button label a policy clicks to answer r: the
// detector's Action, else "Got it" (the rate-limit modal's button).
func AckLabel(r interstitial.Result) string {
	if strings.TrimSpace(r.Action) != "" {
		return r.Action
	}
	return "Got it"
}

var _ InterstitialActor = (*Web)(nil)
