package core

import (
	"context"
	"encoding/json"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/sitecheck"
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
		out = append(out, service.SiteInfo{ID: st.ID, Name: st.Name, Address: st.Address, Code: st.Has(site.FeatureCodeArtifacts), Builtin: st.Builtin,
			Efforts: st.EffortNames(), Tools: st.ToolNames(), Temporary: st.TemporaryChat != "", Places: st.Places})
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

// DoctorSites checks the sites live (jobs.Runner.DoctorSites). Errors:
// errs.HubForbidden for an agent; as jobs.Runner.DoctorSites.
func (s *Service) DoctorSites(ctx context.Context, c service.Caller, req service.SitesDoctorRequest) (service.SitesReport, error) {
	if err := admit(c, "check the sites", req); err != nil {
		return service.SitesReport{}, err
	}
	return s.h.DoctorSites(ctx, req)
}

// ApplySiteOverride adds req.Override to the "sites" setting (see
// sitecheck.Apply), checks the result as the Settings view's sites editor
// does, and saves it. Errors: errs.HubForbidden for an agent;
// errs.ConfigInvalid or errs.SiteIncomplete (nothing saved).
func (s *Service) ApplySiteOverride(ctx context.Context, c service.Caller, req service.ApplySiteOverrideRequest) (config.Settings, error) {
	if err := admit(c, "change the settings", req); err != nil {
		return config.Settings{}, err
	}
	set := s.c.Settings()
	sites, err := sitecheck.Apply(set.Sites, req.Override)
	if err != nil {
		return config.Settings{}, err
	}
	text, err := json.MarshalIndent(sites, "", "  ")
	if err != nil {
		return config.Settings{}, err
	}
	if sites, err = site.Builtin().CheckOverridesText(string(text)); err != nil {
		return config.Settings{}, err
	}
	set.Sites = sites
	if err := s.c.saveSettings(set); err != nil {
		return config.Settings{}, err
	}
	return s.c.Settings(), nil
}
