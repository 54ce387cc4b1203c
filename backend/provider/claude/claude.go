// Package claude is Ferry's adapter for Claude (claude.ai). The composer is
// a ProseMirror editor typed with execCommand('insertText') (property writes
// silently fail), sending is a click on "Send message", and the answer
// arrives as Messages-style server-sent events on POST
// /api/organizations/{org}/chat_conversations/{id}/completion, decoded with
// stream "claude-sse": content_block_delta text is the answer, thinking
// blocks never are, and message_stop completes the turn. The model is proven
// by message_start.message.model. A logged-out claude.ai lands on /login.
// Everything else is provider.Web driven by the registry's selectors.
//
// This folder holds everything Ferry knows about Claude: site.go (its
// registry entry), stream.go (decoder "claude-sse"), rules.go (its
// interstitial signs), sim.go and sim.js (its simulator stand-in and page,
// with the fidelity notes against the providers reference) and this adapter,
// with its captures under testdata. Its init registers each part with its
// registry (stream, site, interstitial, sim, provider); provider/all links it
// in.
package claude

import (
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// ID is the site id the adapter registers for.
const ID = "claude"

func init() {
	stream.Register(DecoderName, func() stream.Decoder { return NewDecoder() })
	site.Register(Site())
	for _, r := range Rules() {
		interstitial.Register(r)
	}
	sim.Register(SimSite())
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives Claude in one tab.
type Adapter struct {
	*provider.Web
}

// New returns the adapter for env. It fails with BadInput when env lacks a
// page or a site, or names a site other than claude.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.ID != ID {
		return nil, errs.New(errs.BadInput, "the claude adapter cannot drive site %q", env.Site.ID)
	}
	w, err := provider.NewWeb(env)
	if err != nil {
		return nil, err
	}
	return &Adapter{Web: w}, nil
}

// Interface guards.
var (
	_ provider.Adapter        = (*Adapter)(nil)
	_ provider.ModelSelector  = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
