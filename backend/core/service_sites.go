package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

// ListSites lists the site registry (built-in sites and the user's) by id.
// Errors: errs.HubForbidden for an agent; errs.ConfigInvalid for a site
// override that does not parse.
func (s *Service) ListSites(ctx context.Context, c service.Caller, req service.ListSitesRequest) ([]service.SiteInfo, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	reg, err := s.c.sites()
	if err != nil {
		return nil, err
	}
	out := []service.SiteInfo{}
	for _, st := range reg.Sites() {
		out = append(out, service.SiteInfo{ID: st.ID, Name: st.Name, Address: st.Address, Code: st.Has(site.FeatureCodeArtifacts), Builtin: st.Builtin})
	}
	return out, nil
}

// ListModels lists the model aliases of req.Site from the capability
// registry ("default" first), each with its features. Errors:
// errs.HubForbidden for an agent; errs.UnknownSite; errs.ConfigInvalid.
func (s *Service) ListModels(ctx context.Context, c service.Caller, req service.ListModelsRequest) ([]service.ModelInfo, error) {
	if err := admit(c, "", req); err != nil {
		return nil, err
	}
	reg, err := s.c.sites()
	if err != nil {
		return nil, err
	}
	st, err := reg.Get(req.Site)
	if err != nil {
		return nil, err
	}
	aliases := st.ModelAliases()
	for i, a := range aliases {
		if a == site.DefaultModel && i > 0 {
			aliases[0], aliases[i] = aliases[i], aliases[0]
		}
	}
	out := []service.ModelInfo{}
	for _, a := range aliases {
		fs, err := st.FeaturesFor(a)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(fs))
		for _, f := range fs {
			names = append(names, string(f))
		}
		out = append(out, service.ModelInfo{Alias: a, Features: names})
	}
	return out, nil
}
