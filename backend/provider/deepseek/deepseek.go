// Package deepseek is Ferry's adapter for DeepSeek (chat.deepseek.com). The
// composer is a React textarea (typed with the prototype's value setter), the
// answer arrives as server-sent events on POST /api/v0/chat/completion
// (decoded with stream "deepseek-sse": only RESPONSE fragments are answer
// text, never THINK), and the model is proven by the stream's model_type.
// Everything else is provider.Web driven by the registry's selectors.
//
// This folder holds everything Ferry knows about DeepSeek: site.go (its
// registry entry), stream.go (decoder "deepseek-sse"), rules.go (its
// interstitial signs), sim.go and sim.js (its simulator stand-in and page,
// with the fidelity notes against the providers reference) and this adapter,
// with its captures under testdata. Its init registers each part with its
// registry (stream, site, interstitial, sim, provider); provider/all links it
// in.
package deepseek

import (
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// ID is the site id the adapter registers for.
const ID = "deepseek"

func init() {
	stream.Register(DecoderName, func() stream.Decoder { return NewDecoder() })
	site.Register(Site())
	for _, r := range Rules() {
		interstitial.Register(r)
	}
	sim.Register(SimSite())
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives DeepSeek in one tab.
type Adapter struct {
	*provider.Web
}

// New returns the adapter for env. It fails with BadInput when env lacks a
// page or a site, or names a site other than deepseek.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.ID != ID {
		return nil, errs.New(errs.BadInput, "the deepseek adapter cannot drive site %q", env.Site.ID)
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
	_ provider.EffortSelector = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
