package provider

import (
	"context"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/domrule"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/site"
)

// Web is the selector-driven engine of an adapter: readiness, typing, send,
// completion (network stream first, DOM rules as fallback), interstitials
// and extraction, all from the site registry's data. Adapters embed it and
// override what their site does differently.
type Web struct {
	Env
}

// NewWeb returns the engine for env. It fails with BadInput when env lacks a
// page or a site.
func NewWeb(env Env) (*Web, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	if env.Poll <= 0 {
		env.Poll = 150 * time.Millisecond
	}
	if env.ReadyTimeout <= 0 {
		env.ReadyTimeout = 20 * time.Second
	}
	if env.StopTimeout <= 0 {
		env.StopTimeout = StopTimeout
	}
	if env.TileTimeout <= 0 {
		env.TileTimeout = TileTimeout
	}
	return &Web{Env: env}, nil
}

// Site implements Adapter.
func (w *Web) Site() site.Site { return w.Env.Site }

// TargetID implements Adapter.
func (w *Web) TargetID() string { return w.Page.ID() }

// Registry returns the site registry the adapter answers capability
// questions with (nil when it was given none).
func (w *Web) Registry() *site.Registry { return w.Sites }

// pageState is one poll of the page.
type pageState struct {
	URL          string `json:"url"`
	Composer     int    `json:"composer"`   // index of the first composer selector with a visible match, -1
	Send         int    `json:"send"`       // index of the first send selector with a visible, enabled match, -1
	Ready        bool   `json:"ready"`      // the ready marker is visible (or the site has none)
	LoggedIn     bool   `json:"loggedIn"`   // a logged-in marker is visible (or the site has none)
	Stop         bool   `json:"stop"`       // a stop control is visible
	Busy         bool   `json:"busy"`       // another busy marker is visible
	HasTurn      bool   `json:"hasTurn"`    // an assistant turn follows the last user turn
	Finished     bool   `json:"finished"`   // a finished-action bar belongs to that turn
	Text         string `json:"text"`       // its answer text
	Slug         string `json:"slug"`       // its data-message-model-slug, if any
	Users        int    `json:"users"`      // user turns mounted
	Assistants   int    `json:"assistants"` // assistant turns mounted
	LastUserID   string `json:"lastUserId"`
	LastUserText string `json:"lastUserText"`
}

// turn is what st shows of the turn the DOM rules judge.
func (st pageState) turn() domrule.State {
	return domrule.State{HasTurn: st.HasTurn, Stop: st.Stop, Busy: st.Busy, Finished: st.Finished, Text: st.Text}
}

// stateJS reads everything a poll needs in one evaluation. Selectors come
// from the site registry; "first selector with a visible match wins".
const stateJS = `(spec) => {
  const vis = (el) => {
    if (!el || !el.isConnected) return false;
    if (!el.getClientRects().length) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  const match = (sels, root, texts) => {
    for (const s of sels || []) {
      let list;
      try { list = (root || document).querySelectorAll(s); } catch (e) { continue; }
      const out = [];
      for (const el of list) {
        if (!vis(el)) continue;
        if (texts && texts.length && !texts.some((t) => (el.innerText || '').includes(t))) continue;
        out.push(el);
      }
      if (out.length) return out;
    }
    return [];
  };
  const q = (role, root) => match(spec.sel[role], root, (spec.texts || {})[role]);
  const firstIndex = (role, ok) => {
    const sels = spec.sel[role] || [];
    for (let i = 0; i < sels.length; i++) {
      const els = match([sels[i]], null, (spec.texts || {})[role]);
      if (els.some(ok || (() => true))) return i;
    }
    return -1;
  };
  const enabled = (el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true' &&
    el.getAttribute('data-disabled') !== 'true' && getComputedStyle(el).pointerEvents !== 'none';
  const after = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  const users = q('user_turn');
  const lastU = users[users.length - 1] || null;
  const asst = q('assistant_turn');
  let turn = asst[asst.length - 1] || null;
  if (turn && lastU && !(after(lastU, turn) || lastU.contains(turn))) turn = null;
  const out = {
    url: location.href,
    composer: firstIndex('composer'),
    send: firstIndex('send', enabled),
    ready: !(spec.sel.ready || []).length || q('ready').length > 0,
    loggedIn: !(spec.sel.logged_in || []).length || q('logged_in').length > 0,
    stop: q('stop').length > 0,
    busy: q('busy').length > 0,
    hasTurn: !!turn, finished: false, text: '', slug: '',
    users: users.length, assistants: asst.length, lastUserId: '', lastUserText: '',
  };
  if (lastU) {
    for (const a of spec.idAttrs || ['data-message-id']) {
      const idEl = lastU.hasAttribute(a) ? lastU : lastU.querySelector('[' + a + ']');
      out.lastUserId = (idEl && idEl.getAttribute(a)) || '';
      if (out.lastUserId) break;
    }
    if (!out.lastUserId) out.lastUserId = lastU.getAttribute('data-turn-id') || '';
    out.lastUserText = (lastU.innerText || '').slice(0, 4096);
  }
  if (turn) {
    // Thinking, reasoning and tool blocks are never the answer: a body
    // inside one (Kimi renders its thinking first, as a .markdown inside
    // .thinking-container) is skipped for the next.
    const thoughtSels = spec.sel.thoughts || [];
    const inThoughts = (el) => thoughtSels.some((s) => { try { const t = el.closest(s); return !!t && turn.contains(t); } catch (e) { return false; } });
    let body = null;
    for (const s of spec.sel.answer_body || []) {
      body = match([s], turn).find((el) => !inThoughts(el)) || null;
      if (body) break;
    }
    if (body) {
      let text = body.innerText || '';
      for (const th of q('thoughts', body)) text = text.replace(th.innerText || '', '');
      out.text = text.trim();
    }
    const slugEl = turn.matches('[data-message-model-slug]') ? turn : turn.querySelector('[data-message-model-slug]');
    out.slug = (slugEl && slugEl.getAttribute('data-message-model-slug')) || '';
    out.finished = match(spec.sel.finished, null).some((f) => turn.contains(f) || after(turn, f));
    if ((spec.busyTexts || []).some((b) => out.text.startsWith(b))) out.busy = true;
  }
  return out;
}`

// codeBlocksJS reads the code blocks of the last assistant turn's answer.
const codeBlocksJS = `(spec) => {
  const turns = document.querySelectorAll((spec.sel.assistant_turn || []).join(',') || '#none');
  const turn = turns[turns.length - 1];
  if (!turn) return [];
  const thoughtSels = spec.sel.thoughts || [];
  const inThoughts = (el) => thoughtSels.some((s) => { try { const t = el.closest(s); return !!t && turn.contains(t); } catch (e) { return false; } });
  let els = [];
  for (const s of spec.sel.code_block || []) {
    try { els = Array.from(turn.querySelectorAll(s)).filter((el) => !inThoughts(el)); } catch (e) { continue; }
    if (els.length) break;
  }
  return els.map((el) => {
    const code = el.matches('code') ? el : (el.querySelector('code') || el);
    const m = (code.className || '').match(/language-([\w+#.-]+)/);
    return {language: m ? m[1] : '', code: (code.innerText || code.textContent || '').replace(/\n$/, '')};
  });
}`

type jsSpec struct {
	Sel       map[site.Role][]string `json:"sel"`
	Texts     map[site.Role][]string `json:"texts,omitempty"`
	BusyTexts []string               `json:"busyTexts,omitempty"`
	IDAttrs   []string               `json:"idAttrs,omitempty"`
}

func (w *Web) spec() jsSpec {
	s := w.Env.Site
	return jsSpec{Sel: s.Selectors, Texts: s.Texts, BusyTexts: s.BusyTexts, IDAttrs: s.MessageIDAttrs}
}

func (w *Web) state(ctx context.Context) (pageState, error) {
	var st pageState
	err := w.Page.EvalInto(ctx, &st, stateJS, w.spec())
	return st, err
}

// Interstitial takes a snapshot of the page and runs the detector on it.
func (w *Web) Interstitial(ctx context.Context) (interstitial.Result, error) {
	s := w.Env.Site
	probe := interstitial.Probe{
		Composer: s.Selector(site.RoleComposer), LoggedIn: s.Selector(site.RoleLoggedIn), LoggedOut: s.Selector(site.RoleLoggedOut),
		ErrorText: s.Selector(site.RoleErrorText), AssistantTurn: s.Selector(site.RoleAssistantTurn),
		UserTurn: s.Selector(site.RoleUserTurn), Thoughts: s.Selector(site.RoleThoughts),
	}
	var raw string
	if err := w.Page.EvalInto(ctx, &raw, "() => "+interstitial.Script(probe)); err != nil {
		return interstitial.Result{}, err
	}
	snap, err := interstitial.ParseSnapshot(raw)
	if err != nil {
		return interstitial.Result{}, err
	}
	snap.OnLoginPage = s.IsLoginURL(snap.URL)
	return interstitial.Detect(snap), nil
}

// blocked returns the envelope of an interstitial that forbids typing.
func (w *Web) blocked(ctx context.Context) error {
	r, err := w.Interstitial(ctx)
	if err != nil {
		return err
	}
	if r.Blocking {
		return r.Err()
	}
	return nil
}

// bound checks that the tab is on its site (URL safety).
func (w *Web) bound(rawURL string) error {
	if w.Env.Site.IsLoginURL(rawURL) {
		return errs.New(errs.LoginRequired, "the %s tab is on its login page", w.Env.Site.Name).WithEvidence("url", site.Redact(rawURL))
	}
	b, err := site.Bind(w.Env.Site, rawURL)
	if err != nil {
		return err
	}
	return b.Check()
}

// Ready implements Adapter.
func (w *Web) Ready(ctx context.Context) error {
	rctx, cancel := context.WithTimeout(ctx, w.ReadyTimeout)
	defer cancel()
	var last pageState
	for {
		info, err := w.Page.Info(rctx)
		if err != nil {
			return w.readyErr(ctx, rctx, err, last)
		}
		if loading(info.URL) {
			// A new tab reports about:blank until its first navigation
			// commits: that is loading, not leaving the site.
			select {
			case <-rctx.Done():
				return w.bound(info.URL)
			case <-time.After(w.Poll):
			}
			continue
		}
		if err := w.bound(info.URL); err != nil {
			return err
		}
		r, err := w.Interstitial(rctx)
		if err == nil && r.Blocking {
			return r.Err()
		}
		if err == nil {
			st, serr := w.state(rctx)
			if serr == nil {
				last = st
				// A stop control means the site is still answering an
				// earlier prompt (a run cancelled in Ferry keeps
				// generating on the site): typing now would go nowhere
				// or stop that answer.
				if st.Composer >= 0 && st.Ready && st.LoggedIn && !st.Stop {
					return nil
				}
			} else if !errs.Has(serr, errs.NavigationAborted) {
				return w.readyErr(ctx, rctx, serr, last)
			}
		} else if !errs.Has(err, errs.NavigationAborted) {
			return w.readyErr(ctx, rctx, err, last)
		}
		select {
		case <-rctx.Done():
			return w.readyErr(ctx, rctx, rctx.Err(), last)
		case <-time.After(w.Poll):
		}
	}
}

// loading reports whether rawURL is a tab's placeholder before its first
// navigation commits.
func loading(rawURL string) bool {
	return rawURL == "" || rawURL == "about:blank"
}

func (w *Web) readyErr(ctx, rctx context.Context, err error, last pageState) error {
	if ctx.Err() != nil {
		return ContextErr(ctx, "waiting for the page")
	}
	if rctx.Err() == nil {
		return err
	}
	s := w.Env.Site
	switch {
	case last.Composer < 0:
		return errs.New(errs.ComposerNotFound, "no %s composer appeared within %s (tried %s)", s.Name, w.ReadyTimeout, strings.Join(s.Selector(site.RoleComposer), " | ")).
			WithEvidence("role", string(site.RoleComposer)).
			WithHint("the page may have changed: override the %q selectors of site %q in settings", site.RoleComposer, s.ID)
	case !last.LoggedIn:
		return errs.New(errs.LoginRequired, "%s shows no logged-in account", s.Name).WithEvidence("role", string(site.RoleLoggedIn))
	case last.Stop && last.Ready:
		return errs.New(errs.TabBusy, "%s is still answering an earlier prompt in this tab after %s", s.Name, w.ReadyTimeout).
			WithEvidence("role", string(site.RoleStop))
	}
	return errs.New(errs.ComposerNotFound, "%s did not finish loading within %s", s.Name, w.ReadyTimeout).WithEvidence("role", string(site.RoleReady))
}

func (w *Web) composerSelector(ctx context.Context) (string, error) {
	st, err := w.state(ctx)
	if err != nil {
		return "", err
	}
	sels := w.Env.Site.Selector(site.RoleComposer)
	if st.Composer < 0 || st.Composer >= len(sels) {
		return "", errs.New(errs.ComposerNotFound, "no %s composer on the page (tried %s)", w.Env.Site.Name, strings.Join(sels, " | ")).
			WithEvidence("role", string(site.RoleComposer)).
			WithHint("the page may have changed: override the %q selectors of site %q in settings", site.RoleComposer, w.Env.Site.ID)
	}
	return sels[st.Composer], nil
}

var strategies = map[site.Typing]browser.Strategy{
	site.TypingInsertText:   browser.InsertText,
	site.TypingExecCommand:  browser.ExecCommand,
	site.TypingNativeSetter: browser.NativeSetter,
	site.TypingInputEvent:   browser.PasteEvent,
}

// VerifyComposer reads the composer back and compares it with prompt, as
// Compose does after typing (browser.Page.Verify): a step between Compose
// and Submit that may disturb the composer proves it holds the prompt.
func (w *Web) VerifyComposer(ctx context.Context, prompt string) error {
	sel, err := w.composerSelector(ctx)
	if err != nil {
		return err
	}
	_, err = w.Page.Verify(ctx, sel, prompt)
	return err
}

// Compose implements Adapter.
func (w *Web) Compose(ctx context.Context, prompt string) error {
	if err := w.blocked(ctx); err != nil {
		return err
	}
	sel, err := w.composerSelector(ctx)
	if err != nil {
		return err
	}
	// One hold for clearing, typing and reading back: a headful browser
	// drops clicks sent to a tab in the background that was never shown
	// (see browser.HoldInput), and the tab is shown once, not per click.
	release, err := w.Page.HoldInput(ctx)
	if err != nil {
		return err
	}
	defer release()
	var opts []browser.TypeOption
	if w.Env.Site.NoExtraInput {
		opts = append(opts, browser.WithoutExtraInput())
	}
	var lastErr error
	for _, ty := range w.Env.Site.Typing {
		strategy, ok := strategies[ty]
		if !ok {
			continue
		}
		if err := w.Page.Clear(ctx, sel); err != nil {
			return err
		}
		if err := w.Page.Type(ctx, sel, prompt, strategy, opts...); err != nil {
			if c := errs.CodeOf(err); c != errs.ComposerNotFound && c != errs.BadInput {
				return err
			}
			lastErr = err
			continue
		}
		_, err := w.Page.Verify(ctx, sel, prompt)
		if err == nil {
			return nil
		}
		lastErr = err
		if errs.Has(err, errs.PromptTooLarge) {
			break
		}
	}
	// Leave no half-typed prompt behind.
	_ = w.Page.Clear(ctx, sel)
	if lastErr == nil {
		lastErr = errs.New(errs.ComposerNotFound, "site %q has no typing strategy Ferry knows", w.Env.Site.ID)
	}
	return lastErr
}
