package browser

import (
	"context"
	"time"
)

// Input to a tab in the background of a headful window.
//
// A headful Chromium drops the mouse presses, releases and key events that
// CDP sends to a tab that has never been shown (a tab Ferry opened in the
// background, say): the calls succeed and the page sees nothing but the
// mouse move (measured under Xvfb, Chromium 156; Input.insertText does
// land). Headless Chromium delivers them. Focus emulation
// (Emulation.setFocusEmulationEnabled) gives the tab what a user's
// glance would: Chromium keeps it rendered as if it were being captured and
// lets it believe it has focus, without activating it, raising or focusing
// the window, or touching the tab in front (which stays in front and
// visible). While the emulation lasts the tab's document reports
// visibilityState "visible" and hasFocus() true; ending it makes the tab
// hidden again. So Ferry turns it on only while it gives a tab input, and
// off right after; Chromium itself ends it when Ferry's session with the
// tab ends (a crash of Ferry cannot leave a tab emulated).

// inputReady waits, once focus emulation is on, until the document knows
// it is visible: the renderer learns it from the browser, apart from the
// CDP reply. (Waiting for an animation frame as well was tried: after
// Input.insertText a headless tab drew none for 2 s, and headful input
// landed without it.)
const inputReady = `() => new Promise((resolve) => {
  if (document.visibilityState === 'visible') return resolve(true);
  const seen = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', seen);
    resolve(true);
  };
  document.addEventListener('visibilitychange', seen);
  setTimeout(() => resolve(false), 1000);
})`

// backToHidden waits until a tab that was hidden before its input is hidden
// again, so that the caller finds the tab as it was.
const backToHidden = `() => new Promise((resolve) => {
  if (document.visibilityState === 'hidden') return resolve(true);
  const seen = () => {
    if (document.visibilityState !== 'hidden') return;
    document.removeEventListener('visibilitychange', seen);
    resolve(true);
  };
  document.addEventListener('visibilitychange', seen);
  setTimeout(() => resolve(false), 1000);
})`

type focusEmulation struct {
	Enabled bool `json:"enabled"`
}

// releaseTimeout bounds turning the emulation off, which must happen even
// when the caller's context has ended.
const releaseTimeout = 5 * time.Second

// HoldInput makes the tab take trusted input while it stays where it is:
// it turns on focus emulation for the tab (see above) and returns the
// function that turns it off again. Holds nest: the emulation ends when the
// last one is released, and release waits until a tab that was hidden is
// hidden again. Click, ClickAt and Press take a hold of their own; callers
// that give a tab several inputs in a row (compose, then send) hold it for
// the whole sequence so the tab is shown once. Release is safe to call more
// than once. Errors: the page's envelopes (TargetNotFound, TargetCrashed,
// BrowserDisconnected, Timeout, Cancelled); then nothing is held.
func (p *Page) HoldInput(ctx context.Context) (release func(), err error) {
	p.focusMu.Lock()
	defer p.focusMu.Unlock()
	if p.focusHolds == 0 {
		var state struct {
			Visibility string `json:"visibility"`
		}
		if err := p.EvalInto(ctx, &state, `() => ({visibility: document.visibilityState})`); err != nil {
			return nil, err
		}
		if err := p.Exec(ctx, "Emulation.setFocusEmulationEnabled", focusEmulation{Enabled: true}, nil); err != nil {
			return nil, err
		}
		p.wasHidden = state.Visibility == "hidden"
		p.shown = state.Visibility == "visible" && !p.b.headless(ctx)
		// Best effort: a page that does not turn visible within the bound
		// (or navigates meanwhile) still gets its input; the caller
		// verifies the effect, as for every click.
		if _, err := p.Eval(ctx, inputReady); err != nil && (p.Err() != nil || ctx.Err() != nil) {
			p.endFocus()
			return nil, err
		}
	}
	p.focusHolds++
	done := false
	return func() {
		p.focusMu.Lock()
		defer p.focusMu.Unlock()
		if done {
			return
		}
		done = true
		p.focusHolds--
		if p.focusHolds == 0 {
			p.endFocus()
		}
	}, nil
}

// endFocus turns focus emulation off; p.focusMu is held. A page that is gone
// took its emulation with it, so failures are not reported.
func (p *Page) endFocus() {
	if p.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	if err := p.Exec(ctx, "Emulation.setFocusEmulationEnabled", focusEmulation{Enabled: false}, nil); err != nil {
		return
	}
	if p.wasHidden {
		_, _ = p.Eval(ctx, backToHidden)
	}
}

// withInput runs fn while the tab holds input (see HoldInput).
func (p *Page) withInput(ctx context.Context, fn func() error) error {
	release, err := p.HoldInput(ctx)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}
