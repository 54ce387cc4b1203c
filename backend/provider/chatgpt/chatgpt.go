// Package chatgpt is Ferry's adapter for ChatGPT (chatgpt.com). It types into
// the ProseMirror composer, captures POST /backend-api/f/conversation (delta
// encoding v1) from before the click on send, proves the model from the
// stream's model_slug and the page's data-message-model-slug, and takes the
// canonical answer from GET /backend-api/conversation/<id>, fetched inside
// the page with the bearer token of /api/auth/session. The token lives in
// memory only: it is never logged, stored or put in an error.
//
// This folder holds everything Ferry knows about ChatGPT: site.go (its
// registry entry), stream.go and citations.go (decoder "chatgpt-delta-v1"),
// rules.go (its interstitial signs), internal/chatgptsim (its simulator
// stand-in and page, with the fidelity checklist against the providers
// reference), internal/picker (the model and effort picker), the
// conversation fetcher and this
// adapter, with its captures under testdata. Its init registers each part
// with its registry (stream, site, interstitial, sim, provider); provider/all
// links it in.
package chatgpt

import (
	"context"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/chatgptsim"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// ID is the site id the adapter registers for.
const ID = "chatgpt"

func init() {
	stream.Register(DecoderName, func() stream.Decoder { return NewDecoder() })
	site.Register(Site())
	for _, r := range Rules() {
		interstitial.Register(r)
	}
	sim.Register(chatgptsim.Site())
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives ChatGPT in one tab. Readiness, typing, sending and the DOM
// rules come from provider.Web with ChatGPT's registry selectors; Ready adds
// the session check and Extract the canonical answer.
type Adapter struct {
	*provider.Web
	token    string // the session's access token: memory only
	last     turnMemory
	read     readMemory
	research researchMemory
}

// New returns the adapter for env. It fails with BadInput when env lacks a
// page or a site, or names a site other than chatgpt.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.ID != ID {
		return nil, errs.New(errs.BadInput, "the chatgpt adapter cannot drive site %q", env.Site.ID)
	}
	w, err := provider.NewWeb(env)
	if err != nil {
		return nil, err
	}
	return &Adapter{Web: w}, nil
}

// Ready implements provider.Adapter: the page checks of provider.Web, then
// /api/auth/session must name a user. chatgpt.com answers logged-out users
// too (with a weaker model), which is not what a user of their account
// expects: that is LoginRequired.
//
// A page that asks which account to continue as ("Welcome back") is
// answered with the one account, or the one the settings name
// (chooseAccount), then checked again.
func (a *Adapter) Ready(ctx context.Context) error {
	err := a.Web.Ready(ctx)
	if errs.Has(err, errs.LoginRequired) || errs.Has(err, errs.ComposerNotFound) {
		chose, cerr := a.chooseAccount(ctx)
		if cerr != nil {
			return cerr
		}
		if chose {
			err = a.Web.Ready(ctx)
		}
	}
	if err != nil {
		return err
	}
	_, err = a.session(ctx)
	return err
}

// Extract implements provider.Adapter with one extraction for every turn,
// whether the run saw its stream or a reattach found it in the page: the
// conversation's canonical answer (its text with citation spans as
// Markdown links to their sources, code blocks from its fences), read by the conversation id the stream
// named or, for a turn the page completed, the one the tab's address names.
// Only when the conversation cannot be read is the stream's or the page's
// text returned, with a warning, cleaned alike (cleanAnswer), the page's
// citation pills as links (pageCitations).
func (a *Adapter) Extract(ctx context.Context, t *provider.Turn) (*provider.Answer, error) {
	if a.research.done != nil {
		return a.researchAnswer(ctx, t), nil
	}
	ans, err := a.Web.Extract(ctx, t)
	if errs.Has(err, errs.AnswerEmpty) {
		return a.imageAnswer(ctx, t, err)
	}
	if err != nil {
		return nil, err
	}
	if ans.Source == "dom" {
		ans.Text = a.pageCitations(ctx, ans.Text)
	}
	ans.Text = cleanAnswer(ans.Text)
	if ans.ConversationID == "" {
		ans.ConversationID = a.conversationInTab(ctx)
	}
	if ans.ConversationID == "" {
		ans.Warnings = append(ans.Warnings, "no conversation id: the answer is the "+ans.Source+" text, not the conversation's canonical one")
		return ans, nil
	}
	c, err := a.conversation(ctx, ans.ConversationID)
	if err != nil {
		ans.Warnings = append(ans.Warnings, "canonical answer unavailable ("+string(errs.CodeOf(err))+"): using the "+ans.Source+" text")
		return ans, nil
	}
	a.read = readMemory{id: ans.ConversationID, conv: c}
	m, ok := c.answer()
	if !ok {
		ans.Warnings = append(ans.Warnings, "the conversation holds no finished assistant answer: using the "+ans.Source+" text")
		return ans, nil
	}
	if ans.MessageID != "" && m.ID != ans.MessageID {
		ans.Warnings = append(ans.Warnings, "the conversation's current answer is not the streamed message")
		return ans, nil
	}
	if ans.Source == "stream" && m.text() != ans.Text {
		ans.Warnings = append(ans.Warnings, "the streamed text differs from the conversation's canonical text; the canonical text is returned")
	}
	ans.Text, ans.Source = m.text(), "conversation_api"
	ans.CodeBlocks = provider.CodeBlocks(ans.Text)
	if ans.CodeBlocks == nil {
		ans.CodeBlocks = []provider.CodeBlock{}
	}
	ans.MessageID = m.ID
	if slug := m.slug(); slug != "" && ans.Model.Slug == "" {
		ans.Model.Slug, ans.Model.Source = slug, "conversation_api:metadata.model_slug"
	}
	return ans, nil
}

// conversationInTab is the id of the conversation the tab shows
// (https://chatgpt.com/c/<id>), or "" when it shows none or cannot be read.
func (a *Adapter) conversationInTab(ctx context.Context) string {
	u, err := a.ConversationURL(ctx)
	if err != nil || u == "" {
		return ""
	}
	return conversationIDOf(u)
}

// Interface guards.
var (
	_ provider.Adapter        = (*Adapter)(nil)
	_ provider.ModelSelector  = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
