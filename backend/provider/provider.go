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
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
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
