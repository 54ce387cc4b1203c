package provider

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// startCapture begins capturing the site's answer stream; it must run before
// the click on send, or the response is missed.
func (w *Web) startCapture(ctx context.Context, t *Turn) error {
	sc := w.Env.Site.Stream
	if sc == nil || sc.Decoder == "" || sc.PathPattern == "" {
		return nil
	}
	dec, err := stream.New(sc.Decoder)
	if err != nil {
		return err
	}
	origin := strings.TrimSuffix(w.Env.Site.Address, "/")
	if u, perr := url.Parse(w.Env.Site.Address); perr == nil {
		origin = u.Scheme + "://" + u.Host
	}
	pat := strings.TrimSuffix(strings.TrimPrefix(sc.PathPattern, "^"), "$")
	re, err := regexp.Compile("^" + regexp.QuoteMeta(origin) + "(?:" + pat + `)(?:\?.*)?$`)
	if err != nil {
		return errs.Wrap(err, errs.ConfigInvalid, "the stream path pattern of site %q does not compile: %v", w.Env.Site.ID, err)
	}
	t.dec, t.decoderName = dec, sc.Decoder
	// A decoder that follows a turn onto the page's socket gets the
	// socket's messages too.
	_, sockets := dec.(stream.SocketReader)
	c, err := w.Page.Capture(ctx, browser.Match{URL: re, Method: sc.Method, Sockets: sockets}, t.sink(w.Env.Site))
	if err != nil {
		return err
	}
	t.capture = c
	return nil
}

// Submit implements Adapter.
func (w *Web) Submit(ctx context.Context, prompt string) (*Turn, error) {
	before, err := w.state(ctx)
	if err != nil {
		return nil, err
	}
	t := &Turn{Prompt: prompt, page: w.Page, notify: make(chan struct{}, 1)}
	if err := w.startCapture(ctx, t); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			t.Close()
		}
	}()
	// The click on send and its confirmation (which may click once more)
	// happen under one input hold; see Compose.
	release, err := w.Page.HoldInput(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := w.send(ctx, prompt); err != nil {
		return nil, err
	}
	t.SentAt = time.Now()
	if err := w.confirm(ctx, t, prompt, before); err != nil {
		return nil, err
	}
	ok = true
	return t, nil
}

// send finds the enabled send control and clicks it once (or presses the
// site's key). A composer wiped by late hydration is typed again first:
// nothing was sent yet.
func (w *Web) send(ctx context.Context, prompt string) error {
	s := w.Env.Site
	if s.Send == site.SendEnter || s.Send == site.SendCtrlEnter {
		sel, err := w.composerSelector(ctx)
		if err != nil {
			return err
		}
		// The key goes to the focused element: focus the composer the way a
		// user would, with a click.
		if _, err := w.Page.Click(ctx, sel); err != nil {
			return err
		}
		k := browser.Enter
		if s.Send == site.SendCtrlEnter {
			k = browser.CtrlEnter
		}
		return w.Page.Press(ctx, k)
	}
	deadline := time.Now().Add(10 * time.Second)
	retyped := 0
	for tick := 0; ; tick++ {
		st, err := w.state(ctx)
		if err != nil {
			return err
		}
		sels := s.Selector(site.RoleSend)
		if st.Send >= 0 && st.Send < len(sels) {
			_, err := w.Page.Click(ctx, sels[st.Send])
			if errors.Is(err, browser.ErrObscured) {
				if berr := w.blocked(ctx); berr != nil {
					return berr
				}
				env := errs.Wrap(err, errs.SendUnconfirmed, "something covers the %s send control; nothing was clicked", s.Name).WithEvidence("sent", "false")
				if oe := (*browser.ObscuredError)(nil); errors.As(err, &oe) {
					env = env.WithEvidence("covered_by", oe.By)
				}
				return env
			}
			if errors.Is(err, browser.ErrNotDelivered) {
				return errs.Wrap(err, errs.SendUnconfirmed, "the click on the %s send control did not reach the page; nothing was clicked", s.Name).WithEvidence("sent", "false")
			}
			return err
		}
		if tick%5 == 4 {
			if err := w.blocked(ctx); err != nil {
				return err
			}
			if retyped < 2 {
				if sel, err := w.composerSelector(ctx); err == nil {
					if _, verr := w.Page.Verify(ctx, sel, prompt); verr != nil {
						retyped++
						if err := w.Compose(ctx, prompt); err != nil {
							return err
						}
					}
				}
			}
		}
		if time.Now().After(deadline) {
			return errs.New(errs.ComposerNotFound, "no enabled %s send control appeared (tried %s); nothing was sent", s.Name, strings.Join(s.Selector(site.RoleSend), " | ")).
				WithEvidence("role", string(site.RoleSend)).
				WithHint("the page may have changed: override the %q selectors of site %q in settings", site.RoleSend, s.ID)
		}
		select {
		case <-ctx.Done():
			return ContextErr(ctx, "looking for the send control")
		case <-time.After(w.Poll):
		}
	}
}

// confirm waits for proof that the prompt left: the answer request started,
// or a new user turn holding the prompt appeared, or a stop control, or a
// new answer turn. A click
// that the page accepted and ignored (the composer still holds the prompt,
// no request, no new turn) is clicked once more.
func (w *Web) confirm(ctx context.Context, t *Turn, prompt string, before pageState) error {
	deadline := time.Now().Add(10 * time.Second)
	reclicked := false
	want := collapse(prompt)
	for {
		if t.snapshot().started {
			return nil
		}
		st, err := w.state(ctx)
		if err != nil {
			return err
		}
		newTurn := st.Users > before.Users || (st.LastUserID != "" && st.LastUserID != before.LastUserID)
		if newTurn && strings.Contains(collapse(st.LastUserText), want[:min(len(want), 200)]) {
			return nil
		}
		// A stop control, or a new answer turn: a site without a user-turn
		// selector, whose turn failed before a stop control was seen,
		// still shows the answer turn it began.
		if st.Stop || st.Assistants > before.Assistants {
			return nil
		}
		if r, err := w.Interstitial(ctx); err == nil && r.Blocking {
			return r.Err()
		}
		if !reclicked && time.Since(t.SentAt) > 1500*time.Millisecond && !newTurn && !st.Busy {
			if sel, err := w.composerSelector(ctx); err == nil {
				if _, verr := w.Page.Verify(ctx, sel, prompt); verr == nil {
					reclicked = true
					if err := w.send(ctx, prompt); err != nil {
						return err
					}
				}
			}
		}
		if time.Now().After(deadline) {
			return errs.New(errs.SendUnconfirmed, "clicked send on %s but saw neither the user turn nor the answer request", w.Env.Site.Name).
				WithEvidence("tab", w.Page.ID())
		}
		select {
		case <-ctx.Done():
			return ContextErr(ctx, "confirming the send")
		case <-t.notify:
		case <-time.After(w.Poll):
		}
	}
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
