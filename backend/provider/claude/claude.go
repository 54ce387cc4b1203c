// Package claude is Ferry's adapter for Claude (claude.com). The composer is a
// Tiptap editor (typed with Input.insertText), sending is a click (Enter
// inserts a newline), the answer arrives as NDJSON on POST
// /rest/app-chat/conversations/new (or …/{id}/responses for a follow-up),
// decoded with stream "claude-ndjson": isThinking tokens are never answer
// text, and the model is proven by the stream's modelResponse.model.
// Readiness adds the login probe GET /rest/user-settings (the page has no
// logged-in marker). Everything else is provider.Web driven by the
// registry's selectors.
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
