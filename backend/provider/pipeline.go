package provider

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// This file exposes to the job pipeline (which drives the Adapter methods
// itself, state by state) the checks and proofs that Ask does inline, so
// that a run through the journal refuses and proves exactly what Ask does.

// Preflight is Ask's check before anything is typed: the model alias must
// exist on a's site ("" means whatever is selected), the site with that
// model must offer chat and every feature in features (through the
// adapter's registry when it has one, so user overrides count), and a
// named model needs an adapter that can select it. It returns the model.
// Errors: the site's BadInput for an unknown alias; CapabilityMissing.
func Preflight(a Adapter, alias string, features ...site.Feature) (site.Model, error) {
	s := a.Site()
	if alias == "" {
		alias = site.DefaultModel
	}
	m, err := s.Model(alias)
	if err != nil {
		return site.Model{}, err
	}
	if err := requireAll(a, s, alias, append([]site.Feature{site.FeatureChat}, features...)); err != nil {
		return site.Model{}, err
	}
	if !strings.EqualFold(alias, site.DefaultModel) {
		if _, ok := a.(ModelSelector); !ok {
			return site.Model{}, errs.New(errs.CapabilityMissing, "the %s adapter cannot select models; asked for %q", s.ID, alias).
				WithEvidence("site", s.ID).WithEvidence("model", alias)
		}
	}
	return m, nil
}

// ProveModel is Ask's model check on an extracted answer: it reports
// whether p names model m, and returns ModelMismatch when m has proof
// substrings that neither the slug nor the page's own attribute contains.
func ProveModel(m site.Model, p ModelProof) (bool, error) {
	ok := proves(m, p)
	if len(m.Proof) > 0 && !ok {
		return false, errs.New(errs.ModelMismatch, "asked for model %q but the answer came from %q", m.Alias, firstNonEmpty(p.Slug, p.DOMSlug, "an unnamed model")).
			WithEvidence("requested", m.Alias).WithEvidence("slug", p.Slug).WithEvidence("dom_slug", p.DOMSlug)
	}
	return ok, nil
}

// Transport says how the turn's completion was seen, with partials counted
// by the caller (the transport proof of a Result).
func (t *Turn) Transport(partials int) Transport { return t.transport(partials) }

// ConversationURL returns the address of the conversation the adapter's
// tab shows, or "" when the tab shows the site's start or new-chat page
// (the site has not given the conversation an address yet). Errors: the
// browser's envelopes when the tab is gone.
func (w *Web) ConversationURL(ctx context.Context) (string, error) {
	info, err := w.Page.Info(ctx)
	if err != nil {
		return "", err
	}
	if !w.Env.Site.Allows(info.URL) || !isConversationURL(w.Env.Site, info.URL) {
		return "", nil
	}
	return info.URL, nil
}
