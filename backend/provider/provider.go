// Package provider is the contract between Ferry and one AI chat site: an
// Adapter checks that a tab is ready and logged in, types a prompt and reads
// it back, sends it exactly once and confirms the user turn appeared, waits
// for the real end of the answer while reporting partial text, and extracts
// the answer, its code blocks and the proof of which model wrote it.
// Site-specific extras (model selection, starting a new chat) are optional
// one-method interfaces checked by type assertion.
//
// Package job's Runner drives the methods in order, journaling each state;
// it is the one sequencer of a turn, and the conformance suite
// (providertest) drives adapters through it. This package gives it the
// checks around the sequence (Preflight before anything is typed,
// ProveModel after the answer is extracted) and the shape of a run's answer
// with its proof (Result): routing (the tab requested is the tab
// controlled), transport (network stream or DOM, and why the turn counts as
// complete), content (sha256 and length of the answer) and model (the slug
// and where it was read).
//
// Adapters register themselves by site id in init() (see Register);
// package provider/all imports every one. Web is the selector-driven engine
// most adapters embed: every selector it uses comes from the site registry,
// so a user's settings override fixes a drifted page without a new build.
package provider

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
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
	// StopTimeout bounds Stop: a site still writing this long after its
	// stop control was pressed will not stop (default StopTimeout).
	StopTimeout time.Duration
	// TileTimeout bounds the wait for an attached file's tile to show in
	// the composer (default TileTimeout).
	TileTimeout time.Duration
}

// Factory builds the adapter of one site for a tab. It fails with
// errs.BadInput when env lacks a page or a site.
type Factory func(env Env) (Adapter, error)

// Adapter drives one site in one tab. Methods are called in the order below,
// once per turn, by package job's Runner. Every error is an errs envelope.
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

// EffortSelector is implemented by adapters of sites whose picker offers
// effort tiers (site.Site.Efforts). SelectChoice sets the model m (the zero
// Model leaves it) and the tier e (the zero Effort leaves it), reads both
// back, and returns what it read; it fails with nothing typed when the
// choice cannot be made or confirmed (ModelUnavailable listing what the page
// offers; UsageCap for a tier used up).
type EffortSelector interface {
	SelectChoice(ctx context.Context, m site.Model, e site.Effort) (string, error)
}

// ToolChooser is implemented by adapters of sites whose composer offers
// tools (site.Site.Tools). ChooseTool runs once the prompt is composed: it
// switches the tool t on and proves it (the tool's pill in the editor, the
// composer still holding prompt), returning the pill's words; it fails
// with nothing sent when it cannot (ToolUnavailable saying what the page
// showed; ComposerMismatch when choosing it changed the prompt).
type ToolChooser interface {
	ChooseTool(ctx context.Context, t site.Tool, prompt string) (string, error)
}

// Reloader is implemented by adapters that can load their tab's page
// afresh (the outdated-client policy).
type Reloader interface {
	Reload(ctx context.Context) error
}

// ReasonClientOutdated is the "reason" evidence of a send the site refused
// because the tab holds an outdated build of its web client (DeepSeek's
// CLIENT_VERSION_TOO_LOW): nothing was sent, and a reloaded tab can send.
const ReasonClientOutdated = "client_outdated"

// NewChatStarter is implemented by adapters that can start a fresh chat in
// the same tab (the conversation-too-long policy).
type NewChatStarter interface {
	StartNewChat(ctx context.Context) error
}

// The records of an answer and its proof, as package record declares them
// for the store and every face alike.
type (
	Partial    = record.Partial
	CodeBlock  = record.CodeBlock
	ModelProof = record.ModelProof
	Routing    = record.Routing
	Transport  = record.Transport
	Content    = record.Content
	Timings    = record.Timings
	Result     = record.Result
)

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

// ContextErr turns the end of ctx into the Timeout or Cancelled envelope, with
// stage poll.
func ContextErr(ctx context.Context, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errs.Wrap(ctx.Err(), errs.Timeout, "the deadline passed while %s", what).WithStage(errs.StagePoll)
	}
	return errs.Wrap(ctx.Err(), errs.Cancelled, "cancelled while %s", what)
}
