// Package aistudio is Ferry's adapter for Google AI Studio
// (aistudio.google.com). The model is chosen by URL
// (prompts/new_chat?model=<id>, keeping the /u/<n>/ account prefix), then
// read back from the page. The prompt goes into the Angular textarea with the
// prototype's value setter and an input event; Run and Stop are one footer
// control told apart by its text, never clicked while aria-disabled. AI
// Studio has no network stream Ferry decodes: the turn is complete when the
// turn footer's thumb_up button appears under the answer (provider.Web's DOM
// rule, which also debounces it), and thought chunks are never answer text.
// The model is proven by the URL's model parameter, else by the model card
// the page showed before the turn.
//
// This folder holds everything Ferry knows about Google AI Studio: site.go
// (its registry entry), sim.go and sim.js (its simulator stand-in and page,
// with the fidelity notes against the providers reference) and this adapter;
// AI Studio has no stream decoder and no interstitial sign of its own
// (Google's account pages are the detector's). Its init registers each part
// with its registry (stream, site, interstitial, sim, provider); provider/all
// links it in.
package aistudio

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// ID is the site id the adapter registers for.
const ID = "aistudio"

func init() {
	site.Register(Site())
	sim.Register(SimSite())
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives AI Studio in one tab: provider.Web with AI Studio's
// registry selectors, model selection by URL, and the model proof from the
// URL or the model card.
type Adapter struct {
	*provider.Web
	card string // the model card's label, read while the chat was empty
}

// New returns the adapter for env. It fails with BadInput when env lacks a
// page or a site, or names a site other than aistudio.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.ID != ID {
		return nil, errs.New(errs.BadInput, "the aistudio adapter cannot drive site %q", env.Site.ID)
	}
	w, err := provider.NewWeb(env)
	if err != nil {
		return nil, err
	}
	return &Adapter{Web: w}, nil
}

// Ready implements provider.Adapter: provider.Web's checks, then the model
// card is read while the chat is still empty (it leaves with the first
// turn), as the model proof of answers whose URL names no model.
func (a *Adapter) Ready(ctx context.Context) error {
	if err := a.Web.Ready(ctx); err != nil {
		return err
	}
	label, err := a.cardLabel(ctx)
	if err != nil {
		return err
	}
	if label != "" {
		a.card = label
	}
	return nil
}

// Compose implements provider.Adapter: provider.Web types the prompt with
// the textarea's native setter and an input event and reads it back; then
// the page's token counter must leave "0", the sign that Angular registered
// the value (a prompt the page did not register is sent as an empty one, or
// not at all). It fails with ComposerMismatch when the counter stays at 0.
func (a *Adapter) Compose(ctx context.Context, prompt string) error {
	if err := a.Web.Compose(ctx, prompt); err != nil {
		return err
	}
	sels := a.Env.Site.Selector(site.RoleTokenCount)
	if len(sels) == 0 {
		return nil
	}
	deadline := time.Now().Add(tokenCountWait)
	for {
		var out struct {
			Found bool   `json:"found"`
			Text  string `json:"text"`
		}
		if err := a.Page.EvalInto(ctx, &out, tokenCountJS, sels); err != nil {
			return err
		}
		if !out.Found {
			// No counter on this build of the page: the read-back is the proof.
			return nil
		}
		if t := strings.TrimSpace(out.Text); t != "" && !strings.HasPrefix(t, "0") {
			return nil
		}
		if time.Now().After(deadline) {
			return errs.New(errs.ComposerMismatch, "Google AI Studio's token count still reads %q after typing: the page did not register the prompt", strings.TrimSpace(out.Text)).
				WithEvidence("role", string(site.RoleTokenCount)).
				WithHint("click into the prompt box once and retry; if it persists, override the %q selectors of site %q in settings", site.RoleComposer, a.Env.Site.ID)
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return errs.Wrap(ctx.Err(), errs.Timeout, "the deadline passed while waiting for the token count")
			}
			return errs.Wrap(ctx.Err(), errs.Cancelled, "cancelled while waiting for the token count")
		case <-time.After(a.Poll):
		}
	}
}

// tokenCountWait bounds the wait for the token counter: it updates about
// 150 ms after the last input.
const tokenCountWait = 3 * time.Second

// tokenCountJS reads the first visible token counter.
const tokenCountJS = `(sels) => {
  for (const s of sels) {
    let els = [];
    try { els = Array.from(document.querySelectorAll(s)); } catch (e) { continue; }
    for (const el of els) {
      if (el.getClientRects().length) return {found: true, text: (el.innerText || el.textContent || '')};
    }
  }
  return {found: false, text: ''};
}`

// SelectModel implements provider.ModelSelector: AI Studio chooses the model
// by URL, so the tab loads prompts/new_chat?model=<id> (in the same account)
// and the page must then name that model, in its URL or on its model card.
// It fails with ModelUnavailable when the alias has no model id, and with
// ModelMismatch when the page shows another model.
func (a *Adapter) SelectModel(ctx context.Context, m site.Model) (string, error) {
	if m.URLParam == "" {
		return "", errs.New(errs.ModelUnavailable, "model %q of Google AI Studio has no model id to put in the URL", m.Alias).WithEvidence("model", m.Alias)
	}
	info, err := a.Page.Info(ctx)
	if err != nil {
		return "", err
	}
	target, err := newChatURL(a.Env.Site, info.URL, m.URLParam)
	if err != nil {
		return "", err
	}
	if err := a.Page.Navigate(ctx, target); err != nil {
		return "", err
	}
	a.card = ""
	if err := a.Ready(ctx); err != nil {
		return "", err
	}
	info, err = a.Page.Info(ctx)
	if err != nil {
		return "", err
	}
	if id := modelParam(info.URL); id == m.URLParam || strings.EqualFold(a.card, m.URLParam) {
		return firstNonEmpty(a.card, id), nil
	}
	return "", errs.New(errs.ModelMismatch, "asked Google AI Studio for model %s but the page shows %q", m.URLParam, firstNonEmpty(a.card, modelParam(info.URL))).
		WithEvidence("model", m.Alias).WithEvidence("url", site.Redact(info.URL)).
		WithHint("the model id %q may be retired: pick the model in AI Studio by hand, or override the site's models in settings", m.URLParam)
}

// accountPrefix matches the /u/<n>/ path that picks a Google account.
var accountPrefix = regexp.MustCompile(`^/u/\d+/`)

// newChatURL is the site's new-chat address with the model parameter, under
// the account prefix of the tab's current URL.
func newChatURL(s site.Site, current, model string) (string, error) {
	base := firstNonEmpty(s.NewChat, strings.TrimSuffix(s.Address, "/")+"/prompts/new_chat")
	u, err := url.Parse(base)
	if err != nil {
		return "", errs.Wrap(err, errs.ConfigInvalid, "the new-chat address of site %q does not parse: %v", s.ID, err)
	}
	if cur, err := url.Parse(current); err == nil && cur.Host == u.Host {
		if p := accountPrefix.FindString(cur.Path); p != "" && !accountPrefix.MatchString(u.Path) {
			u.Path = strings.TrimSuffix(p, "/") + u.Path
		}
	}
	q := u.Query()
	q.Set("model", model)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// modelParam is the model query parameter of a URL ("" when none).
func modelParam(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Query().Get("model")
}

func (a *Adapter) cardLabel(ctx context.Context) (string, error) {
	var label string
	err := a.Page.EvalInto(ctx, &label, labelJS, a.Env.Site.Selector(site.RoleModelPicker))
	return strings.TrimSpace(label), err
}

// labelJS returns the text of the first visible match of the selectors.
const labelJS = `(sels) => {
  for (const s of sels) {
    let els = [];
    try { els = Array.from(document.querySelectorAll(s)); } catch (e) { continue; }
    for (const el of els) {
      if (el.getClientRects().length && (el.innerText || '').trim()) return el.innerText.trim();
    }
  }
  return '';
}`

// Wait implements provider.Adapter: provider.Web's DOM rule. AI Studio
// words a per-minute limit as "You've reached your rate limit", which the
// shared detector files under usage caps: here it is a rate limit (cool
// down and retry), while an exceeded quota stays a usage cap.
func (a *Adapter) Wait(ctx context.Context, t *provider.Turn, onPartial func(provider.Partial)) error {
	err := a.Web.Wait(ctx, t, onPartial)
	var e *errs.Envelope
	if !errors.As(err, &e) || e.Code != errs.UsageCap || !rateLimitWords.MatchString(e.Evidence["text"]) {
		return err
	}
	out := errs.New(errs.RateLimited, "Google AI Studio says the rate limit is reached")
	for k, v := range e.Evidence {
		out.WithEvidence(k, v)
	}
	return out
}

// rateLimitWords is AI Studio's wording of a short-term limit, as opposed
// to "You exceeded your current quota".
var rateLimitWords = regexp.MustCompile(`(?i)rate limit`)

// Extract implements provider.Adapter: the page's answer (never its thought
// chunks), with the model named by the URL's model parameter, else by the
// model card read before the turn.
func (a *Adapter) Extract(ctx context.Context, t *provider.Turn) (*provider.Answer, error) {
	ans, err := a.Web.Extract(ctx, t)
	if err != nil {
		return nil, err
	}
	if ans.Source == "dom" {
		var blocks []provider.CodeBlock
		if err := a.Page.EvalInto(ctx, &blocks, codeBlocksJS, a.Env.Site.Selector(site.RoleAssistantTurn), a.Env.Site.Selector(site.RoleCodeBlock)); err != nil {
			return nil, err
		}
		if blocks != nil {
			ans.CodeBlocks = blocks
		}
	}
	if ans.Model.Slug == "" {
		info, err := a.Page.Info(ctx)
		if err != nil {
			return nil, err
		}
		switch id := modelParam(info.URL); {
		case id != "":
			ans.Model.Slug, ans.Model.Source = id, "url:model"
		case a.card != "":
			ans.Model.Slug, ans.Model.Source = a.card, "dom:model_selector_card"
		}
	}
	return ans, nil
}

// codeBlocksJS reads the code blocks of the last turn. AI Studio names a
// block's language in a label beside its <pre>, not in a class: the label is
// the block's own text outside the <pre>, when it is one word.
const codeBlocksJS = `(turnSels, blockSels) => {
  let turn = null;
  for (const s of turnSels) {
    try { const all = document.querySelectorAll(s); if (all.length) { turn = all[all.length - 1]; break; } } catch (e) {}
  }
  if (!turn) return [];
  let els = [];
  for (const s of blockSels) {
    try { els = Array.from(turn.querySelectorAll(s)); } catch (e) { continue; }
    if (els.length) break;
  }
  return els.map((el) => {
    const pre = el.matches('pre') ? el : el.querySelector('pre');
    const code = (pre && pre.querySelector('code')) || pre || el;
    const m = (code.className || '').match(/language-([\w+#.-]+)/);
    let lang = m ? m[1] : '';
    if (!lang && pre && pre !== el) {
      const label = (el.innerText || '').replace(pre.innerText || '', '').trim();
      if (/^[\w+#.-]{1,24}$/.test(label)) lang = label.toLowerCase();
    }
    return {language: lang, code: (code.innerText || code.textContent || '').replace(/\n$/, '')};
  });
}`

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// Interface guards.
var (
	_ provider.Adapter        = (*Adapter)(nil)
	_ provider.ModelSelector  = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
