// Package kimi is Ferry's adapter for Kimi (www.kimi.com). The composer is a
// Lexical editor: the prompt goes in with execCommand('insertText') and no
// extra input event (Lexical reads a second data-bearing event as more
// text). Send and stop are one div, .send-button-container, told apart by
// class (.stop, .loading, .disabled). The answer is decoded from the Connect
// stream of POST /apiv2/kimi.chat.v1.ChatService/Chat (older pages:
// kimi.gateway.chat.v1; both match) (stream "kimi": [flags u8][length u32
// BE][json] frames, op set/append, done; think blocks are never the
// answer); without it the DOM rule completes the turn: the assistant
// actions bar visible, stop gone and the text stable, the answer being the
// first .markdown outside .thinking-container (the thinking renders
// first). The model is proven by the stream's scenario (Kimi's model
// family), else by the page's current-model label.
//
// This folder holds everything Ferry knows about Kimi: site.go (its registry
// entry), stream.go (decoder "kimi-connect"), sim.go and sim.js (its
// simulator stand-in and page, with the fidelity notes against the providers
// reference), rules.go (its login dialog, a login wall) and this adapter,
// with its captures under testdata. Its init registers each part with its
// registry (stream, site, interstitial, sim, provider); provider/all links it
// in.
package kimi

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// ID is the site id the adapter registers for.
const ID = "kimi"

func init() {
	stream.Register(DecoderName, func() stream.Decoder { return NewDecoder() })
	site.Register(Site())
	for _, r := range Rules() {
		interstitial.Register(r)
	}
	sim.Register(SimSite())
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives Kimi in one tab: provider.Web with Kimi's registry
// selectors (typing strategy execCommand, no extra input event) plus the
// page's model label as the model proof of a DOM-read answer.
type Adapter struct {
	*provider.Web
}

// New returns the adapter for env. It fails with BadInput when env lacks a
// page or a site, or names a site other than kimi.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.ID != ID {
		return nil, errs.New(errs.BadInput, "the kimi adapter cannot drive site %q", env.Site.ID)
	}
	w, err := provider.NewWeb(env)
	if err != nil {
		return nil, err
	}
	return &Adapter{Web: w}, nil
}

// Extract implements provider.Adapter: provider.Web's answer; when the
// stream named no model, the page's current-model label (the ready marker)
// is the proof.
func (a *Adapter) Extract(ctx context.Context, t *provider.Turn) (*provider.Answer, error) {
	ans, err := a.Web.Extract(ctx, t)
	if err != nil {
		return nil, err
	}
	if ans.Model.Slug == "" {
		var label string
		if err := a.Page.EvalInto(ctx, &label, labelJS, a.Env.Site.Selector(site.RoleReady)); err != nil {
			return nil, err
		}
		if label = strings.TrimSpace(label); label != "" {
			ans.Model.Slug, ans.Model.Source = label, "dom:current_model"
		}
	}
	return ans, nil
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

// Interface guards.
var (
	_ provider.Adapter        = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
