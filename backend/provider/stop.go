package provider

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// Stopper is implemented by adapters that can stop the answer their tab's
// site is writing, as a user's click on its stop control does (the site's
// own stop endpoint, where it has one, is called by that control).
//
// Stop presses the stop control with trusted input, in the background
// (the tab is neither activated nor raised), and returns once the page
// shows the turn stopped: neither a stop control nor a busy marker. It
// presses again when a press is ignored (a page re-rendering drops one).
// A page that shows no turn in progress is stopped already: nil. Errors:
// TabBusy when the site goes on writing for Env.StopTimeout after the
// first press (or until ctx ends) in spite of the presses; the page's
// envelopes (TargetNotFound, BrowserDisconnected) when the tab is gone.
type Stopper interface {
	Stop(ctx context.Context) error
}

// StopTimeout is the default bound of Web's Stop (Env.StopTimeout): a
// site that still writes this long after Ferry pressed its stop control
// will not stop.
const StopTimeout = 10 * time.Second

// repressAfter is how long a press is given to show its effect before
// the stop control is pressed again.
const repressAfter = 2 * time.Second

// stopIndexJS is the index of the first stop selector with a visible
// match that carries the role's words (AI Studio's one Run/Stop control
// is a stop control only while it says "Stop"), -1 for none.
const stopIndexJS = `(sels, texts) => {
  const vis = (el) => el.isConnected && el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== 'hidden' && getComputedStyle(el).display !== 'none';
  for (let i = 0; i < sels.length; i++) {
    let list = [];
    try { list = document.querySelectorAll(sels[i]); } catch (e) { continue; }
    for (const el of list) {
      if (!vis(el)) continue;
      if (texts && texts.length && !texts.some((t) => (el.innerText || '').includes(t))) continue;
      return i;
    }
  }
  return -1;
}`

// Stop implements Stopper with the site's stop selectors (site.RoleStop).
// Env.StopTimeout runs from the first press that reached the page (from
// the start while the page shows no stop control to press), so a slow
// machine does not give up on a site before Ferry pressed its control.
func (w *Web) Stop(ctx context.Context) error {
	s := w.Env.Site
	sels := s.Selector(site.RoleStop)
	start := time.Now()
	var first, pressed time.Time
	presses := 0
	var obscured error // the last press something covered
	for {
		st, err := w.state(ctx)
		if err != nil {
			return w.stopErr(ctx, err, presses)
		}
		if !st.Stop && !st.Busy {
			return nil
		}
		from := first
		if from.IsZero() {
			from = start
		}
		if time.Since(from) >= w.Env.StopTimeout {
			if presses == 0 && obscured != nil {
				env := errs.Wrap(obscured, errs.TabBusy, "something covers the %s stop control; it could not be pressed", s.Name).
					WithEvidence("role", string(site.RoleStop))
				if oe := (*browser.ObscuredError)(nil); errors.As(obscured, &oe) {
					env = env.WithEvidence("covered_by", oe.By)
				}
				return env
			}
			return w.wentOn(presses)
		}
		if st.Stop && time.Since(pressed) >= repressAfter {
			var i int
			if err := w.Page.EvalInto(ctx, &i, stopIndexJS, sels, s.Texts[site.RoleStop]); err != nil {
				return w.stopErr(ctx, err, presses)
			}
			if i >= 0 && i < len(sels) {
				// The same click as every other (browser.Page.Click): in the
				// tab a headful window shows it goes the keyboard's way and
				// never raises the browser.
				_, err := w.Page.Click(ctx, sels[i])
				switch {
				case err == nil:
					presses++
					pressed = time.Now()
					if first.IsZero() {
						first = pressed
					}
				case errs.Has(err, errs.ComposerNotFound):
					// The control went away between the look and the
					// press: the turn may have ended; look again.
				case errors.Is(err, browser.ErrObscured):
					if berr := w.blocked(ctx); berr != nil {
						return berr
					}
					// Something passing (a toast, a re-render): press again
					// at the next look; said if it stays until the bound.
					obscured = err
				case errors.Is(err, browser.ErrNotDelivered):
					// Dropped before the page: press again at the next look.
				default:
					return w.stopErr(ctx, err, presses)
				}
			}
		}
		select {
		case <-ctx.Done():
			return w.stopErr(ctx, ctx.Err(), presses)
		case <-time.After(w.Poll):
		}
	}
}

// stopErr is the error of a Stop that ended with err: TabBusy (wentOn)
// when ctx ended with the site still writing.
func (w *Web) stopErr(ctx context.Context, err error, presses int) error {
	if ctx.Err() == nil {
		return err
	}
	return w.wentOn(presses)
}

// wentOn is the TabBusy envelope of a site that went on writing after
// Ferry pressed its stop control presses times.
func (w *Web) wentOn(presses int) error {
	s := w.Env.Site
	if presses == 0 {
		return errs.New(errs.TabBusy, "%s went on writing and showed no stop control Ferry could press", s.Name).
			WithEvidence("role", string(site.RoleStop))
	}
	return errs.New(errs.TabBusy, "%s went on writing after Ferry pressed its stop control %d times", s.Name, presses).
		WithEvidence("role", string(site.RoleStop)).WithEvidence("presses", strconv.Itoa(presses))
}

var _ Stopper = (*Web)(nil)
