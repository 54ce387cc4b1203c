// Package grok is Ferry's adapter for Grok (grok.com). The composer is a
// Tiptap editor (typed with Input.insertText), sending is a click (Enter
// inserts a newline), the answer arrives as NDJSON on POST
// /rest/app-chat/conversations/new (or …/{id}/responses for a follow-up),
// decoded with stream "grok-ndjson": isThinking tokens are never answer
// text, and the model is proven by the stream's modelResponse.model.
// Readiness adds the login probe GET /rest/user-settings (the page has no
// logged-in marker). Everything else is provider.Web driven by the
// registry's selectors.
//
// This folder holds everything Ferry knows about Grok: site.go (its registry
// entry), stream.go (decoder "grok-ndjson"), rules.go (its interstitial
// signs), sim.go and sim.js (its simulator stand-in and page, with the
// fidelity notes against the providers reference) and this adapter, with its
// captures under testdata. Its init registers each part with its registry
// (stream, site, interstitial, sim, provider); provider/all links it in.
package grok

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// ID is the site id the adapter registers for.
const ID = "grok"

func init() {
	stream.Register(DecoderName, func() stream.Decoder { return NewDecoder() })
	site.Register(Site())
	for _, r := range Rules() {
		interstitial.Register(r)
	}
	sim.Register(SimSite())
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives Grok in one tab.
type Adapter struct {
	*provider.Web
}

// New returns the adapter for env. It fails with BadInput when env lacks a
// page or a site, or names a site other than grok.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.ID != ID {
		return nil, errs.New(errs.BadInput, "the grok adapter cannot drive site %q", env.Site.ID)
	}
	w, err := provider.NewWeb(env)
	if err != nil {
		return nil, err
	}
	return &Adapter{Web: w}, nil
}

// Ready implements provider.Adapter: the page checks of provider.Web, then
// GET /rest/user-settings in the page must answer 200. grok.com shows its
// composer to visitors too, so the page alone cannot tell a logged-out tab:
// that is LoginRequired (a 401 or 403), before anything is typed.
func (a *Adapter) Ready(ctx context.Context) error {
	if err := a.Web.Ready(ctx); err != nil {
		return err
	}
	resp, err := fetch.Text(ctx, a.Page, a.origin()+"/rest/user-settings", fetch.Options{Headers: map[string]string{"accept": "application/json"}})
	if err != nil {
		return provider.SessionCheckFailed(err, "the Grok user settings")
	}
	switch {
	case resp.Status == 403 && resp.Headers["cf-mitigated"] != "":
		return errs.New(errs.CloudflareChallenge, "Grok's user-settings endpoint is behind a Cloudflare check").WithEvidence("status", "403")
	case resp.Status != 200:
		return errs.New(errs.LoginRequired, "Grok is not logged in (GET /rest/user-settings answered HTTP %d)", resp.Status).
			WithEvidence("status", strconv.Itoa(resp.Status)).WithEvidence("signal", "rest/user-settings")
	}
	return nil
}

// Wait implements provider.Adapter. Grok's error lines carry a gRPC code,
// which says more than the page's banner: code 13 (internal) under the
// "heavy usage" banner is a failed turn, not a rate limit (that is code 8,
// or HTTP 429 on the send). A turn the stream completed on isSoftStop is
// given a moment (at most 2 s) for the closing modelResponse, which holds
// the full text and the model that answered.
func (a *Adapter) Wait(ctx context.Context, t *provider.Turn, onPartial func(provider.Partial)) error {
	err := a.Web.Wait(ctx, t, onPartial)
	if err != nil {
		if res, ok := t.Stream(); ok && res.Err != nil && res.Err.Evidence["error_code"] != "" && errs.CodeOf(err) != res.Err.Code {
			return res.Err
		}
		return err
	}
	if t.Source() != "stream" {
		return nil
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		res, _ := t.Stream()
		if res.Ended || res.Model != "" || time.Now().After(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (a *Adapter) origin() string {
	u, err := url.Parse(a.Site().Address)
	if err != nil || u.Host == "" {
		return "https://grok.com"
	}
	return u.Scheme + "://" + u.Host
}

// Interface guards.
var (
	_ provider.Adapter        = (*Adapter)(nil)
	_ provider.ModelSelector  = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
