package site

import (
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Model returns the site's model with the given alias (case-insensitive;
// "" means DefaultModel). The default model exists on every site even when
// not listed. An unknown alias is an errs.CapabilityMissing envelope that
// lists the site's aliases: Ferry never guesses a model.
func (s Site) Model(alias string) (Model, error) {
	a := strings.ToLower(strings.TrimSpace(alias))
	if a == "" {
		a = DefaultModel
	}
	for _, m := range s.Models {
		if strings.ToLower(m.Alias) == a {
			return m, nil
		}
	}
	if a == DefaultModel {
		return Model{Alias: DefaultModel}, nil
	}
	// The site's own words name a model too ("GPT-5.6 Sol").
	for _, m := range s.Models {
		for _, l := range m.Labels {
			if strings.EqualFold(l, strings.TrimSpace(alias)) {
				return m, nil
			}
		}
	}
	known := s.ModelAliases()
	return Model{}, errs.New(errs.CapabilityMissing, "%s has no model %q", s.Name, alias).
		WithEvidence("site", s.ID).WithEvidence("model", alias).
		WithEvidence("known_models", strings.Join(known, ", ")).
		WithHint("use one of the model aliases of %s: %s", s.ID, strings.Join(known, ", "))
}

// Effort returns the site's effort tier that name names, by its Name or
// one of its page labels (case and the space or dash between words do not
// matter: "extra high", "Extra-High"). Errors: CapabilityMissing naming
// the tiers the site offers, or saying it offers none.
func (s Site) Effort(name string) (Effort, error) {
	want := nameKey(name)
	for _, e := range s.Efforts {
		if nameKey(e.Name) == want {
			return e, nil
		}
		for _, l := range e.Labels {
			if nameKey(l) == want {
				return e, nil
			}
		}
	}
	if len(s.Efforts) == 0 {
		return Effort{}, errs.New(errs.CapabilityMissing, "%s offers no effort choice; asked for %q", s.Name, name).
			WithEvidence("site", s.ID).WithEvidence("effort", name).
			WithHint("leave --effort unset on %s", s.ID)
	}
	names := s.EffortNames()
	return Effort{}, errs.New(errs.CapabilityMissing, "%s has no effort %q", s.Name, name).
		WithEvidence("site", s.ID).WithEvidence("effort", name).WithEvidence("known_efforts", strings.Join(names, ", ")).
		WithHint("use one of the efforts of %s: %s", s.ID, strings.Join(names, ", "))
}

// EffortNames lists the names of the site's effort tiers, cheapest first.
func (s Site) EffortNames() []string {
	out := make([]string, len(s.Efforts))
	for i, e := range s.Efforts {
		out[i] = e.Name
	}
	return out
}

// nameKey is a name of a tier or tool as Ferry compares it: lower case,
// spaces, dashes and underscores alike ("Extra High" is "extra-high").
func nameKey(v string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "-")
}

// Tool returns the site's tool called name (its Name, or one of its
// Labels, case and separators aside); CapabilityMissing lists those the
// site offers.
func (s Site) Tool(name string) (Tool, error) {
	want := nameKey(name)
	for _, t := range s.Tools {
		if nameKey(t.Name) == want {
			return t, nil
		}
		for _, l := range t.Labels {
			if nameKey(l) == want {
				return t, nil
			}
		}
	}
	if len(s.Tools) == 0 {
		return Tool{}, errs.New(errs.CapabilityMissing, "%s offers no tools Ferry can choose; asked for %q", s.Name, name).
			WithEvidence("site", s.ID).WithEvidence("tool", name).
			WithHint("leave --tool unset on %s", s.ID)
	}
	names := s.ToolNames()
	return Tool{}, errs.New(errs.CapabilityMissing, "%s has no tool %q; it offers %s", s.Name, name, strings.Join(names, ", ")).
		WithEvidence("site", s.ID).WithEvidence("tool", name).WithEvidence("tools", strings.Join(names, ",")).
		WithHint("pass one of: --tool %s", strings.Join(names, ", --tool "))
}

// ToolNames lists the names of the site's tools, in its order.
func (s Site) ToolNames() []string {
	out := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		out[i] = t.Name
	}
	return out
}

// ModelAliases lists the site's model aliases, sorted, including "default".
func (s Site) ModelAliases() []string {
	seen := map[string]bool{DefaultModel: true}
	out := []string{DefaultModel}
	for _, m := range s.Models {
		a := strings.ToLower(m.Alias)
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// FeaturesFor returns what the site offers with the given model alias: the
// site's features, narrowed to the model's own list when it has one. Picking
// a model other than the default needs model selection.
func (s Site) FeaturesFor(alias string) ([]Feature, error) {
	m, err := s.Model(alias)
	if err != nil {
		return nil, err
	}
	out := make([]Feature, 0, len(s.Features))
	for _, f := range s.Features {
		if len(m.Features) > 0 && !containsFeature(m.Features, f) {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// Features returns what siteID offers with the model alias; errors as Require.
func (r *Registry) Features(siteID, alias string) ([]Feature, error) {
	s, err := r.Get(siteID)
	if err != nil {
		return nil, err
	}
	return s.FeaturesFor(alias)
}

// Require fails closed unless siteID with the model alias offers feature.
// Call it before anything is typed into the page. Errors: errs.UnknownSite
// for an unknown site; errs.CapabilityMissing for an unknown model alias
// (listing the known ones), for a non-default model on a site without model
// selection, and for a missing feature (naming the sites that have it).
func (r *Registry) Require(siteID, alias string, feature Feature) error {
	s, err := r.Get(siteID)
	if err != nil {
		return err
	}
	feats, err := s.FeaturesFor(alias)
	if err != nil {
		return err
	}
	m, _ := s.Model(alias)
	if m.Alias != DefaultModel && !containsFeature(feats, FeatureModelSelection) {
		return errs.New(errs.CapabilityMissing, "%s cannot select the model %q", s.Name, alias).
			WithEvidence("site", s.ID).WithEvidence("model", alias).
			WithEvidence("feature", string(FeatureModelSelection)).
			WithHint("leave the model unset to use the one selected in %s, or pick it there by hand", s.Name)
	}
	if containsFeature(feats, feature) {
		return nil
	}
	var have []string
	for _, other := range r.Sites() {
		if containsFeature(other.Features, feature) {
			have = append(have, other.ID)
		}
	}
	e := errs.New(errs.CapabilityMissing, "%s (model %s) does not offer %s", s.Name, m.Alias, feature).
		WithEvidence("site", s.ID).WithEvidence("model", m.Alias).WithEvidence("feature", string(feature))
	if len(have) > 0 {
		e.WithEvidence("sites_with_feature", strings.Join(have, ", ")).
			WithHint("use a site that offers %s: %s", feature, strings.Join(have, ", "))
	}
	return e
}

func containsFeature(fs []Feature, f Feature) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}
