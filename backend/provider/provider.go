// Package provider is the contract between Ferry and one AI chat site: an
// Adapter checks that a tab is ready and logged in, types a prompt and reads
// it back, sends it exactly once and confirms the user turn appeared, waits
// for the real end of the answer while reporting partial text, and extracts
// the answer, its code blocks and the proof of which model wrote it.
// Site-specific extras (model selection, starting a new chat) are optional
// one-method interfaces checked by type assertion.
//
// Ask runs the whole sequence and returns a Result that carries its proof:
// routing (the tab requested is the tab controlled), transport (network
// stream or DOM, and why the turn counts as complete), content (sha256 and
// length of the answer) and model (the slug and where it was read).
//
// Adapters register themselves by site id in init() (see Register);
// package provider/all imports every one. Web is the selector-driven engine
// most adapters embed: every selector it uses comes from the site registry,
// so a user's settings override fixes a drifted page without a new build.
package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// Env is what an adapter works with: one tab, the site it is bound to (with
// the user's overrides merged) and the registry that answers capability
// questions.
type Env struct {
	Page  *browser.Page
	Site  site.Site
	Sites *site.Registry
	// Poll is the DOM polling interval while waiting (default 150 ms).
	Poll time.Duration
	// ReadyTimeout bounds the wait for the page to finish loading and show
	// its composer (default 20 s, always within the caller's context).
	ReadyTimeout time.Duration
}

// Factory builds the adapter of one site for a tab. It fails with
// errs.BadInput when env lacks a page or a site.
type Factory func(env Env) (Adapter, error)

// Adapter drives one site in one tab. Methods are called in the order below,
// once per turn; Ask is the usual caller. Every error is an errs envelope.
type Adapter interface {
	// Site returns the site definition the adapter works with.
	Site() site.Site
	// TargetID returns the CDP TargetID of the tab the adapter controls.
	TargetID() string
	// Ready waits until the page has loaded and shows its composer, and
	// checks that a user is logged in and that no interstitial stands in the
	// way. Errors: LoginRequired, CloudflareChallenge (and the other
	// interstitial codes), NavigatedAway when the tab is not on the site,
	// ComposerNotFound when the composer never appears.
	Ready(ctx context.Context) error
	// Compose clears any stale draft, types prompt with the site's typing
	// strategies in order and reads it back. Errors: ComposerNotFound,
	// ComposerMismatch, PromptTooLarge, or an interstitial's envelope (then
	// nothing was typed).
	Compose(ctx context.Context, prompt string) error
	// Submit starts capturing the answer stream, clicks send once and
	// confirms that the user turn appeared. Errors: SendUnconfirmed when the
	// effect of the click cannot be seen, an interstitial's envelope.
	Submit(ctx context.Context, prompt string) (*Turn, error)
	// Wait blocks until the turn is complete, calling onPartial (if not nil)
	// as the answer grows. Errors: the envelope of an interstitial or of an
	// error the site reported, GenerationError when the stream ended before
	// the turn completed, NavigatedAway, Timeout or Cancelled from ctx.
	Wait(ctx context.Context, t *Turn, onPartial func(Partial)) error
	// Extract returns the answer of a completed turn with its code blocks
	// and model proof. Errors: AnswerEmpty when the turn has no text.
	Extract(ctx context.Context, t *Turn) (*Answer, error)
}

// ModelSelector is implemented by adapters that can pick a model in the
// site's picker. SelectModel returns the label it selected; it fails with
// ModelUnavailable when the picker offers no entry for the alias.
type ModelSelector interface {
	SelectModel(ctx context.Context, m site.Model) (string, error)
}

// NewChatStarter is implemented by adapters that can start a fresh chat in
// the same tab (the conversation-too-long policy).
type NewChatStarter interface {
	StartNewChat(ctx context.Context) error
}

// Request is one prompt to ask.
type Request struct {
	Prompt string
	// Model is a model alias of the site ("" or "default": whatever is
	// selected now).
	Model string
	// Features are required beyond chat (e.g. code_artifacts); refused
	// before anything is typed when the site or model lacks one.
	Features []site.Feature
	// RequestedTab is the TargetID the caller asked for ("" when the tab
	// was chosen by site); TabWasCreated says Ferry opened the tab.
	RequestedTab  string
	TabWasCreated bool
	// OnPartial receives the answer as it grows.
	OnPartial func(Partial)
}

// Partial is one partial-text update.
type Partial struct {
	Text      string `json:"text"`      // the answer so far
	Added     string `json:"added"`     // what this update adds
	Rewritten bool   `json:"rewritten"` // Text does not extend the previous update
	Source    string `json:"source"`    // "stream" or "dom"
}

// CodeBlock is one fenced code block of an answer.
type CodeBlock struct {
	Language string `json:"language,omitempty"`
	Code     string `json:"code"`
}

// Answer is what Extract read.
type Answer struct {
	Text       string      `json:"text"`
	CodeBlocks []CodeBlock `json:"codeBlocks"`
	// Source says where Text came from: "conversation_api", "stream", "dom".
	Source string     `json:"source"`
	Model  ModelProof `json:"model"`
	// ConversationID and MessageID are the site's ids, when known.
	ConversationID string   `json:"conversationId,omitempty"`
	MessageID      string   `json:"messageId,omitempty"`
	Warnings       []string `json:"warnings,omitempty"`
}

// ModelProof says which model answered and where that was read.
type ModelProof struct {
	Requested string `json:"requested"`          // the alias asked for
	Selected  string `json:"selected,omitempty"` // the picker label chosen
	Slug      string `json:"slug,omitempty"`     // the model the site named
	Source    string `json:"source,omitempty"`   // e.g. "stream:metadata.model_slug"
	DOMSlug   string `json:"domSlug,omitempty"`  // the page's own attribute, when it has one
	// Verified is true when the alias has proof substrings and the slug
	// contains one of them.
	Verified bool `json:"verified"`
}

// Routing is the proof that the tab asked for is the tab that was driven.
type Routing struct {
	RequestedTabID  string `json:"requested_tab_id,omitempty"`
	ControlledTabID string `json:"controlled_tab_id"`
	TabWasCreated   bool   `json:"tab_was_created"`
	Mismatch        bool   `json:"mismatch"`
	URL             string `json:"url,omitempty"` // redacted
}

// Transport says how the end of the turn was seen.
type Transport struct {
	Source         string `json:"source"` // "stream" or "dom"
	Decoder        string `json:"decoder,omitempty"`
	CompleteReason string `json:"complete_reason"`
	StreamBytes    int    `json:"stream_bytes,omitempty"`
	Partials       int    `json:"partials"`
}

// Content identifies the answer text.
type Content struct {
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	Runes  int    `json:"runes"`
	Source string `json:"source"`
}

// Timings are the durations of the phases of a run, in milliseconds.
type Timings struct {
	ReadyMS    int64 `json:"ready_ms"`
	ComposeMS  int64 `json:"compose_ms"`
	SubmitMS   int64 `json:"submit_ms"`
	WaitMS     int64 `json:"wait_ms"`
	ExtractMS  int64 `json:"extract_ms"`
	TotalMS    int64 `json:"total_ms"`
	FirstTextM int64 `json:"first_text_ms,omitempty"` // from send to the first partial text
}

// Result is an answer with its proof.
type Result struct {
	Site           string      `json:"site"`
	Answer         string      `json:"answer"`
	CodeBlocks     []CodeBlock `json:"codeBlocks"`
	Model          ModelProof  `json:"model"`
	Routing        Routing     `json:"routing"`
	Transport      Transport   `json:"transport"`
	Content        Content     `json:"content"`
	ConversationID string      `json:"conversationId,omitempty"`
	MessageID      string      `json:"messageId,omitempty"`
	Timings        Timings     `json:"timings"`
	Warnings       []string    `json:"warnings,omitempty"`
}

// Ask runs one prompt through a: capability check (before anything is
// typed), readiness, model selection, compose, submit, wait and extract.
// It returns the Result only when the turn completed; every failure is an
// errs envelope, and the routing proof is checked before the first action.
func Ask(ctx context.Context, a Adapter, req Request) (*Result, error) {
	t0 := time.Now()
	s := a.Site()
	res := &Result{Site: s.ID, Routing: Routing{
		RequestedTabID: req.RequestedTab, ControlledTabID: a.TargetID(), TabWasCreated: req.TabWasCreated,
	}}
	if req.RequestedTab != "" && req.RequestedTab != a.TargetID() {
		res.Routing.Mismatch = true
		return nil, errs.New(errs.Internal, "the adapter controls tab %s, not the requested tab %s", a.TargetID(), req.RequestedTab).
			WithEvidence("requested_tab_id", req.RequestedTab).WithEvidence("controlled_tab_id", a.TargetID())
	}
	if strings.TrimSpace(req.Prompt) == "" {
		return nil, errs.New(errs.BadInput, "the prompt is empty").WithHint("give the prompt as an argument, with --prompt-file, or on stdin with -")
	}
	alias := req.Model
	if alias == "" {
		alias = site.DefaultModel
	}
	model, err := s.Model(alias)
	if err != nil {
		return nil, err
	}
	if err := requireAll(a, s, alias, append([]site.Feature{site.FeatureChat}, req.Features...)); err != nil {
		return nil, err
	}
	if !strings.EqualFold(alias, site.DefaultModel) {
		if _, ok := a.(ModelSelector); !ok {
			return nil, errs.New(errs.CapabilityMissing, "the %s adapter cannot select models; asked for %q", s.ID, alias).WithEvidence("site", s.ID).WithEvidence("model", alias)
		}
	}

	if err := a.Ready(ctx); err != nil {
		return nil, err
	}
	t1 := time.Now()
	res.Model.Requested = alias
	if ms, ok := a.(ModelSelector); ok && !strings.EqualFold(alias, site.DefaultModel) {
		label, err := ms.SelectModel(ctx, model)
		if err != nil {
			return nil, err
		}
		res.Model.Selected = label
	}
	if err := a.Compose(ctx, req.Prompt); err != nil {
		return nil, err
	}
	t2 := time.Now()
	turn, err := a.Submit(ctx, req.Prompt)
	if err != nil {
		return nil, err
	}
	defer turn.Close()
	t3 := time.Now()
	partials := 0
	var firstText time.Duration
	onPartial := func(p Partial) {
		partials++
		if partials == 1 {
			firstText = time.Since(t3)
		}
		if req.OnPartial != nil {
			req.OnPartial(p)
		}
	}
	if err := a.Wait(ctx, turn, onPartial); err != nil {
		return nil, err
	}
	t4 := time.Now()
	ans, err := a.Extract(ctx, turn)
	if err != nil {
		return nil, err
	}
	t5 := time.Now()

	selected := res.Model.Selected
	res.Model = ans.Model
	res.Model.Requested, res.Model.Selected = alias, selected
	res.Model.Verified = proves(model, res.Model)
	if len(model.Proof) > 0 && !res.Model.Verified {
		return nil, errs.New(errs.ModelMismatch, "asked for model %q but the answer came from %q", alias, firstNonEmpty(res.Model.Slug, res.Model.DOMSlug, "an unnamed model")).
			WithEvidence("requested", alias).WithEvidence("slug", res.Model.Slug).WithEvidence("dom_slug", res.Model.DOMSlug)
	}
	res.Answer, res.CodeBlocks = ans.Text, ans.CodeBlocks
	res.ConversationID, res.MessageID, res.Warnings = ans.ConversationID, ans.MessageID, ans.Warnings
	res.Transport = turn.transport(partials)
	res.Content = ContentOf(ans.Text, ans.Source)
	if info, err := turn.page.Info(ctx); err == nil {
		res.Routing.URL = site.Redact(info.URL)
	}
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	res.Timings = Timings{ReadyMS: ms(t1.Sub(t0)), ComposeMS: ms(t2.Sub(t1)), SubmitMS: ms(t3.Sub(t2)), WaitMS: ms(t4.Sub(t3)),
		ExtractMS: ms(t5.Sub(t4)), TotalMS: ms(t5.Sub(t0)), FirstTextM: ms(firstText)}
	return res, nil
}

// ContentOf is the content proof of an answer text.
func ContentOf(text, source string) Content {
	sum := sha256.Sum256([]byte(text))
	return Content{SHA256: hex.EncodeToString(sum[:]), Bytes: len(text), Runes: utf8.RuneCountInString(text), Source: source}
}

// requireAll fails closed unless the site with the model alias offers every
// feature: through the registry's Require when the adapter carries one (so
// the user's overrides count), else by the same rules on the site alone.
func requireAll(a Adapter, s site.Site, alias string, features []site.Feature) error {
	if r, ok := a.(interface{ Registry() *site.Registry }); ok && r.Registry() != nil {
		for _, f := range features {
			if err := r.Registry().Require(s.ID, alias, f); err != nil {
				return err
			}
		}
		return nil
	}
	have, err := s.FeaturesFor(alias)
	if err != nil {
		return err
	}
	if !strings.EqualFold(alias, site.DefaultModel) {
		features = append([]site.Feature{site.FeatureModelSelection}, features...)
	}
	for _, f := range features {
		ok := false
		for _, h := range have {
			ok = ok || h == f
		}
		if !ok {
			return errs.New(errs.CapabilityMissing, "%s with model %q does not offer %s", s.Name, alias, f).
				WithEvidence("site", s.ID).WithEvidence("model", alias).WithEvidence("feature", string(f))
		}
	}
	return nil
}

// proves reports whether the model proof names the alias.
func proves(m site.Model, p ModelProof) bool {
	if len(m.Proof) == 0 {
		return p.Slug != "" || p.DOMSlug != ""
	}
	for _, want := range m.Proof {
		for _, got := range []string{p.Slug, p.DOMSlug} {
			if got != "" && strings.Contains(strings.ToLower(got), strings.ToLower(want)) {
				return true
			}
		}
	}
	return false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// CodeBlocks returns the fenced code blocks of a Markdown text, in order.
// An unclosed fence runs to the end of the text.
func CodeBlocks(md string) []CodeBlock {
	var out []CodeBlock
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimLeft(lines[i], " ")
		fence := ""
		switch {
		case strings.HasPrefix(l, "```"):
			fence = "```"
		case strings.HasPrefix(l, "~~~"):
			fence = "~~~"
		default:
			continue
		}
		lang := strings.TrimSpace(strings.TrimLeft(l, fence[:1]))
		if f := strings.Fields(lang); len(f) > 0 {
			lang = f[0]
		}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if strings.HasPrefix(strings.TrimSpace(lines[j]), fence) && strings.Trim(strings.TrimSpace(lines[j]), fence[:1]) == "" {
				break
			}
			body = append(body, lines[j])
		}
		out = append(out, CodeBlock{Language: lang, Code: strings.Join(body, "\n")})
		i = j
	}
	return out
}

// checkEnv validates what a Factory was given.
func checkEnv(env Env) error {
	if env.Page == nil {
		return errs.New(errs.BadInput, "the adapter needs a tab")
	}
	if env.Site.ID == "" {
		return errs.New(errs.BadInput, "the adapter needs a site definition")
	}
	return nil
}

// ctxErr turns the end of ctx into the Timeout or Cancelled envelope, with
// stage poll.
func ctxErr(ctx context.Context, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errs.Wrap(ctx.Err(), errs.Timeout, "the deadline passed while %s", what).WithStage(errs.StagePoll)
	}
	return errs.Wrap(ctx.Err(), errs.Cancelled, "cancelled while %s", what)
}

// Turn is one submitted prompt: the answer stream being captured (when the
// site has one) and what the page showed. Close it when done.
type Turn struct {
	Prompt string
	SentAt time.Time

	page    *browser.Page
	capture *browser.Capture

	mu          sync.Mutex
	decoderName string
	dec         stream.Decoder
	reqID       string
	status      int
	started     bool
	ended       bool
	endErr      error
	bytes       int
	notify      chan struct{}

	source         string // "stream" or "dom" once complete
	completeReason string
	domText        string
	domSlug        string
}

// Close stops the stream capture.
func (t *Turn) Close() {
	if t != nil && t.capture != nil {
		t.capture.Stop()
	}
}

// Stream returns the decoded stream so far and whether a stream response was
// seen at all.
func (t *Turn) Stream() (stream.Result, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dec == nil || !t.started {
		return stream.Result{}, false
	}
	return t.dec.Result(), true
}

// Source says how the turn's completion was seen: "stream" or "dom".
func (t *Turn) Source() string { return t.source }

// DOMText is the answer text the page showed when the turn completed.
func (t *Turn) DOMText() string { return t.domText }

// DOMSlug is the model named by the page on the answer, when it names one.
func (t *Turn) DOMSlug() string { return t.domSlug }

func (t *Turn) transport(partials int) Transport {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := Transport{Source: t.source, CompleteReason: t.completeReason, Partials: partials}
	if t.source == "stream" {
		tr.Decoder, tr.StreamBytes = t.decoderName, t.bytes
	}
	return tr
}

func (t *Turn) sink(s site.Site) browser.Sink {
	return func(ev browser.StreamEvent) {
		t.mu.Lock()
		defer func() {
			t.mu.Unlock()
			select {
			case t.notify <- struct{}{}:
			default:
			}
		}()
		switch ev.Kind {
		case browser.StreamStart:
			// The first matching response is the turn's; a later one (a
			// regenerate) is not.
			if t.reqID == "" && s.CaptureMatches(ev.Method, ev.URL) {
				t.reqID, t.status, t.started = ev.RequestID, ev.Status, true
			}
		case browser.StreamData:
			if ev.RequestID == t.reqID {
				t.bytes += len(ev.Data)
				_, _ = t.dec.Write(ev.Data)
			}
		case browser.StreamEnd:
			if ev.RequestID == t.reqID && !t.ended {
				t.ended, t.endErr = true, ev.Err
				_ = t.dec.Close()
			}
		}
	}
}

type streamState struct {
	res     stream.Result
	started bool
	ended   bool
	status  int
	endErr  error
}

func (t *Turn) snapshot() streamState {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := streamState{started: t.started, ended: t.ended, status: t.status, endErr: t.endErr}
	if t.dec != nil {
		st.res = t.dec.Result()
	}
	return st
}

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
	Composer     int    `json:"composer"` // index of the first composer selector with a visible match, -1
	Send         int    `json:"send"`     // index of the first send selector with a visible, enabled match, -1
	Ready        bool   `json:"ready"`    // the ready marker is visible (or the site has none)
	LoggedIn     bool   `json:"loggedIn"` // a logged-in marker is visible (or the site has none)
	Stop         bool   `json:"stop"`     // a stop control is visible
	Busy         bool   `json:"busy"`     // another busy marker is visible
	HasTurn      bool   `json:"hasTurn"`  // an assistant turn follows the last user turn
	Finished     bool   `json:"finished"` // a finished-action bar belongs to that turn
	Text         string `json:"text"`     // its answer text
	Slug         string `json:"slug"`     // its data-message-model-slug, if any
	Users        int    `json:"users"`    // user turns mounted
	LastUserID   string `json:"lastUserId"`
	LastUserText string `json:"lastUserText"`
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
    users: users.length, lastUserId: '', lastUserText: '',
  };
  if (lastU) {
    const idEl = lastU.matches('[data-message-id]') ? lastU : lastU.querySelector('[data-message-id]');
    out.lastUserId = (idEl && idEl.getAttribute('data-message-id')) || lastU.getAttribute('data-turn-id') || '';
    out.lastUserText = (lastU.innerText || '').slice(0, 4096);
  }
  if (turn) {
    const body = q('answer_body', turn)[0];
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
  let els = [];
  for (const s of spec.sel.code_block || []) {
    try { els = Array.from(turn.querySelectorAll(s)); } catch (e) { continue; }
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
}

func (w *Web) spec() jsSpec {
	return jsSpec{Sel: w.Env.Site.Selectors, Texts: w.Env.Site.Texts, BusyTexts: w.Env.Site.BusyTexts}
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
				if st.Composer >= 0 && st.Ready && st.LoggedIn {
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
		return ctxErr(ctx, "waiting for the page")
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

// Compose implements Adapter.
func (w *Web) Compose(ctx context.Context, prompt string) error {
	if err := w.blocked(ctx); err != nil {
		return err
	}
	sel, err := w.composerSelector(ctx)
	if err != nil {
		return err
	}
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
	c, err := w.Page.Capture(ctx, browser.Match{URL: re, Method: sc.Method}, t.sink(w.Env.Site))
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
				return errs.Wrap(err, errs.SendUnconfirmed, "something covers the %s send control; nothing was clicked", s.Name).WithEvidence("sent", "false")
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
			return ctxErr(ctx, "looking for the send control")
		case <-time.After(w.Poll):
		}
	}
}

// confirm waits for proof that the prompt left: the answer request started,
// or a new user turn holding the prompt appeared, or a stop control. A click
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
		if st.Stop {
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
			return ctxErr(ctx, "confirming the send")
		case <-t.notify:
		case <-time.After(w.Poll):
		}
	}
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// Wait implements Adapter. With a stream the turn completes when the
// decoder proves it; without one (or when no stream response appears), by
// the DOM rule: stop control gone, no busy marker, the finished-action bar
// present for 3 consecutive polls and the text unchanged for 1.2 s.
func (w *Web) Wait(ctx context.Context, t *Turn, onPartial func(Partial)) error {
	const stable = 1200 * time.Millisecond
	prev, prevSource := "", ""
	emit := func(text, source string) {
		if text == prev || text == "" {
			return
		}
		added, rewritten := stream.Delta(prev, text)
		if source != prevSource && prevSource != "" {
			rewritten, added = true, text
		}
		prev, prevSource = text, source
		if onPartial != nil {
			onPartial(Partial{Text: text, Added: added, Rewritten: rewritten, Source: source})
		}
	}
	expectStream := t.dec != nil && !w.Env.Site.Stream.Optional
	finishedPolls := 0
	domText, domChanged := "", time.Now()
	refusedAt := time.Time{}
	for tick := 0; ; tick++ {
		ss := t.snapshot()
		if ss.res.Err != nil {
			return w.streamErr(ctx, ss.res.Err)
		}
		if ss.started {
			emit(ss.res.Text, "stream")
			if ss.res.Complete {
				t.source = "stream"
				t.completeReason = "stream:" + firstNonEmpty(ss.res.FinishReason, "complete")
				if w.settle(ctx, t) {
					if err := disagree(w.Env.Site, ss.res.Text, t.domText); err != nil {
						return err
					}
				}
				return nil
			}
			if ss.status >= 400 {
				// A refused send: the page shows why (rate limit, usage cap,
				// expired session). Give it a moment to render.
				if refusedAt.IsZero() {
					refusedAt = time.Now()
				}
				if r, err := w.Interstitial(ctx); err == nil && r.Code != "" {
					return r.Err()
				}
				if time.Since(refusedAt) > 5*time.Second {
					return refusal(w.Env.Site, ss.status)
				}
			} else if ss.ended && !ss.res.Handoff {
				if r, err := w.Interstitial(ctx); err == nil && r.Code != "" && r.Code != errs.GenerationError {
					return r.Err()
				}
				e := errs.New(errs.GenerationError, "the %s answer stream ended before the turn completed", w.Env.Site.Name).
					WithEvidence("reason", "stream_cut").WithEvidence("received_chars", strconv.Itoa(utf8.RuneCountInString(ss.res.Text)))
				if ss.endErr != nil {
					e = e.WithEvidence("transport", string(errs.CodeOf(ss.endErr)))
				}
				return e
			}
		}
		st, err := w.state(ctx)
		if err != nil {
			return err
		}
		if err := w.bound(st.URL); err != nil {
			return err
		}
		useDOM := !ss.started && (!expectStream || time.Since(t.SentAt) > 15*time.Second) || ss.res.Handoff
		if st.Text != domText {
			domText, domChanged = st.Text, time.Now()
		}
		if useDOM {
			if st.HasTurn {
				emit(st.Text, "dom")
			}
			if st.HasTurn && !st.Stop && !st.Busy && st.Finished && st.Text != "" {
				finishedPolls++
			} else {
				finishedPolls = 0
			}
			if finishedPolls >= 3 && time.Since(domChanged) >= stable {
				t.source, t.completeReason = "dom", "dom:stop_gone+action_bar_x3+stable_1200ms"
				t.domText, t.domSlug = st.Text, st.Slug
				return nil
			}
		}
		if tick%3 == 0 {
			r, err := w.Interstitial(ctx)
			if err != nil {
				return err
			}
			if r.Code != "" && r.Terminal {
				return r.Err()
			}
		}
		select {
		case <-ctx.Done():
			return ctxErr(ctx, "waiting for the answer")
		case <-t.notify:
		case <-time.After(w.Poll):
		}
	}
}

// settle gives the page a moment (at most 3 s) to render the turn the
// stream completed, so that the DOM's text and model attribute can serve as
// a second witness. The turn is complete either way.
// It reports whether the page showed the turn finished.
func (w *Web) settle(ctx context.Context, t *Turn) bool {
	deadline := time.Now().Add(3 * time.Second)
	for {
		st, err := w.state(ctx)
		if err != nil {
			return false
		}
		t.domText, t.domSlug = st.Text, st.Slug
		if st.HasTurn && !st.Stop && !st.Busy && st.Finished {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(w.Poll):
		}
	}
}

// disagree fails closed when the page's finished answer strictly extends
// the decoded stream's: the decoder lost text (the site changed its stream
// format), and returning the shorter text would be a wrong answer.
func disagree(s site.Site, streamText, domText string) error {
	st, dt := collapse(streamText), collapse(domText)
	if st == "" || len(dt) <= len(st) || !strings.HasPrefix(dt, st) {
		return nil
	}
	return errs.New(errs.GenerationError, "the decoded %s stream holds %d characters but the page shows %d: the stream format may have changed", s.Name, utf8.RuneCountInString(st), utf8.RuneCountInString(dt)).
		WithEvidence("stream_chars", strconv.Itoa(utf8.RuneCountInString(st))).
		WithEvidence("page_chars", strconv.Itoa(utf8.RuneCountInString(dt))).
		WithHint("read answers from the page until Ferry is updated: set \"stream\": {\"disabled\": true} for site %q in settings", s.ID)
}

// streamErr prefers the page's own, more specific notice (rate limit, usage
// cap, conversation too long) over a generic error the stream reported,
// giving the page a moment to render it.
func (w *Web) streamErr(ctx context.Context, e *errs.Envelope) error {
	if e.Code != errs.GenerationError {
		return e
	}
	deadline := time.Now().Add(1500 * time.Millisecond)
	for time.Now().Before(deadline) {
		if r, err := w.Interstitial(ctx); err == nil && r.Code != "" && r.Code != errs.GenerationError {
			return r.Err()
		}
		select {
		case <-ctx.Done():
			return e
		case <-time.After(w.Poll):
		}
	}
	return e
}

// refusal is the envelope for a send the site refused with an HTTP status
// and no notice the detector recognised.
func refusal(s site.Site, status int) error {
	code := errs.GenerationError
	switch status {
	case 401, 403:
		code = errs.LoginRequired
	case 429:
		code = errs.RateLimited
	}
	return errs.New(code, "%s refused the prompt with HTTP %d", s.Name, status).WithEvidence("status", strconv.Itoa(status))
}

// Extract implements Adapter: the stream's text when the stream completed
// the turn (Markdown, code blocks from its fences), else the page's text and
// code elements.
func (w *Web) Extract(ctx context.Context, t *Turn) (*Answer, error) {
	ans := &Answer{}
	if res, ok := t.Stream(); ok && t.source == "stream" {
		ans.Text, ans.Source = res.Text, "stream"
		ans.CodeBlocks = CodeBlocks(res.Text)
		ans.ConversationID, ans.MessageID = res.ConversationID, res.MessageID
		ans.Model = ModelProof{Slug: res.Model, Source: "stream:" + res.ModelSource}
	} else {
		ans.Text, ans.Source = t.domText, "dom"
		var blocks []CodeBlock
		if err := w.Page.EvalInto(ctx, &blocks, codeBlocksJS, w.spec()); err != nil {
			return nil, err
		}
		ans.CodeBlocks = blocks
	}
	if t.domSlug != "" {
		ans.Model.DOMSlug = t.domSlug
		if ans.Model.Slug == "" {
			ans.Model.Slug, ans.Model.Source = t.domSlug, "dom:data-message-model-slug"
		}
	}
	if ans.CodeBlocks == nil {
		ans.CodeBlocks = []CodeBlock{}
	}
	if strings.TrimSpace(ans.Text) == "" {
		return nil, errs.New(errs.AnswerEmpty, "%s finished the turn without answer text", w.Env.Site.Name).WithEvidence("source", ans.Source)
	}
	return ans, nil
}

// SelectModel implements ModelSelector for pickers that open a menu of
// items: it opens the picker, clicks the item whose text or test id
// contains one of the model's labels, and reads the picker back.
func (w *Web) SelectModel(ctx context.Context, m site.Model) (string, error) {
	s := w.Env.Site
	if len(m.Labels) == 0 {
		return "", errs.New(errs.ModelUnavailable, "model %q of %s has no picker label", m.Alias, s.Name)
	}
	pickers, items := s.Selector(site.RoleModelPicker), s.Selector(site.RoleModelItem)
	var out struct {
		Picker int    `json:"picker"`
		Item   string `json:"item"`
		Label  string `json:"label"`
		Found  bool   `json:"found"`
	}
	for attempt := 0; attempt < 20; attempt++ {
		if err := w.Page.EvalInto(ctx, &out, selectModelJS, pickers, items, m.Labels, attempt == 0); err != nil {
			return "", err
		}
		if out.Picker < 0 {
			return "", errs.New(errs.ModelUnavailable, "no %s model picker on the page (tried %s)", s.Name, strings.Join(pickers, " | ")).WithEvidence("role", string(site.RoleModelPicker))
		}
		if out.Found {
			break
		}
		if attempt == 0 {
			if _, err := w.Page.Click(ctx, pickers[out.Picker]); err != nil {
				return "", err
			}
		}
		select {
		case <-ctx.Done():
			return "", ctxErr(ctx, "selecting the model")
		case <-time.After(w.Poll):
		}
	}
	if !out.Found {
		return "", errs.New(errs.ModelUnavailable, "the %s model menu has no entry for %q (looked for %s)", s.Name, m.Alias, strings.Join(m.Labels, ", ")).WithEvidence("model", m.Alias)
	}
	if _, err := w.Page.Click(ctx, out.Item); err != nil {
		return "", err
	}
	return out.Label, nil
}

// selectModelJS finds the picker and, once the menu is open, the item for
// the labels; it tags the item with a one-off attribute so that a trusted
// click can target exactly it.
const selectModelJS = `(pickers, items, labels, first) => {
  const vis = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  let picker = -1;
  for (let i = 0; i < pickers.length && picker < 0; i++) {
    try { if (Array.from(document.querySelectorAll(pickers[i])).some(vis)) picker = i; } catch (e) {}
  }
  const ls = labels.map((l) => l.toLowerCase());
  const score = (el) => {
    const text = (el.innerText || '').trim().toLowerCase();
    const id = (el.getAttribute('data-testid') || '').toLowerCase();
    const html = el.outerHTML.slice(0, 400).toLowerCase();
    if (ls.some((l) => text === l)) return 3;
    if (ls.some((l) => id.includes(l) || text.includes(l))) return 2;
    if (ls.some((l) => html.includes(l))) return 1;
    return 0;
  };
  for (const s of items) {
    let els = [];
    try { els = Array.from(document.querySelectorAll(s)).filter(vis); } catch (e) { continue; }
    let best = null, bestScore = 0;
    for (const el of els) { const sc = score(el); if (sc > bestScore) { best = el; bestScore = sc; } }
    if (best) {
      document.querySelectorAll('[data-ferry-pick]').forEach((e) => e.removeAttribute('data-ferry-pick'));
      best.setAttribute('data-ferry-pick', '1');
      return {picker, item: '[data-ferry-pick="1"]', label: (best.innerText || '').trim(), found: true};
    }
  }
  return {picker, item: '', label: '', found: false};
}`

// StartNewChat implements NewChatStarter by loading the site's new-chat
// address in the tab.
func (w *Web) StartNewChat(ctx context.Context) error {
	u := w.Env.Site.NewChat
	if u == "" {
		u = w.Env.Site.Address
	}
	return w.Page.Navigate(ctx, u)
}

// Interface guards.
var (
	_ Adapter        = (*Web)(nil)
	_ ModelSelector  = (*Web)(nil)
	_ NewChatStarter = (*Web)(nil)
)
