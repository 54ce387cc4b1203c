package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// This file holds the checks around a turn that the job Runner makes: the
// refusal before anything is typed, and the proofs of what was answered.

// Preflight is the check before anything is typed: the model alias must
// exist on a's site ("" means whatever is selected), the site with that
// model must offer chat and every feature in features (through the
// adapter's registry when it has one, so user overrides count), and a
// named model needs an adapter that can select it. It returns the model.
// Errors: CapabilityMissing (also for an alias the site does not have).
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

// PreflightEffort resolves the effort tier name ("" asks for none) of a's
// site before anything is typed. Errors: CapabilityMissing for a tier the
// site does not list (naming those it does) or an adapter that cannot set
// one.
func PreflightEffort(a Adapter, name string) (site.Effort, error) {
	if strings.TrimSpace(name) == "" {
		return site.Effort{}, nil
	}
	s := a.Site()
	e, err := s.Effort(name)
	if err != nil {
		return site.Effort{}, err
	}
	if _, ok := a.(EffortSelector); !ok {
		return site.Effort{}, errs.New(errs.CapabilityMissing, "the %s adapter cannot choose an effort; asked for %q", s.ID, name).
			WithEvidence("site", s.ID).WithEvidence("effort", name)
	}
	return e, nil
}

// PreflightTool resolves the tool name of a run (empty: none) on the
// adapter's site, and fails closed, before anything is typed, when the site
// does not list it or the adapter cannot choose tools.
func PreflightTool(a Adapter, name string) (site.Tool, error) {
	if strings.TrimSpace(name) == "" {
		return site.Tool{}, nil
	}
	s := a.Site()
	t, err := s.Tool(name)
	if err != nil {
		return site.Tool{}, err
	}
	if _, ok := a.(ToolChooser); !ok {
		return site.Tool{}, errs.New(errs.CapabilityMissing, "the %s adapter cannot choose a tool; asked for %q", s.ID, name).
			WithEvidence("site", s.ID).WithEvidence("tool", name)
	}
	return t, nil
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

// ProveModel is the model check on an extracted answer: it reports whether
// p names model m, and returns ModelMismatch when m has proof substrings
// that neither the slug nor the page's own attribute contains.
func ProveModel(m site.Model, p ModelProof) (bool, error) {
	ok := proves(m, p)
	if len(m.Proof) > 0 && !ok {
		return false, errs.New(errs.ModelMismatch, "asked for model %q but the answer came from %q", m.Alias, firstNonEmpty(p.Slug, p.DOMSlug, "an unnamed model")).
			WithEvidence("requested", m.Alias).WithEvidence("slug", p.Slug).WithEvidence("dom_slug", p.DOMSlug)
	}
	return ok, nil
}

// ProveEffort checks the effort tier e against the answer's model proof:
// a tier with proof substrings must show in the slug (ChatGPT's Pro tier
// answers from a -pro model). Errors: ModelMismatch, naming both.
func ProveEffort(e site.Effort, p ModelProof) (bool, error) {
	if len(e.Proof) == 0 {
		return true, nil
	}
	if proves(site.Model{Alias: e.Name, Proof: e.Proof}, p) {
		return true, nil
	}
	return false, errs.New(errs.ModelMismatch, "asked for the %s effort but the answer came from %q", e.Name, firstNonEmpty(p.Slug, p.DOMSlug, "an unnamed model")).
		WithEvidence("effort", e.Name).WithEvidence("slug", p.Slug).WithEvidence("dom_slug", p.DOMSlug)
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

// ContentOf is the content proof of an answer text.
func ContentOf(text, source string) Content {
	sum := sha256.Sum256([]byte(text))
	return Content{SHA256: hex.EncodeToString(sum[:]), Bytes: len(text), Runes: utf8.RuneCountInString(text), Source: source}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
