package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

// Settings returns the settings in force. Errors: errs.HubForbidden for an
// agent.
func (s *Service) Settings(ctx context.Context, c service.Caller, req service.SettingsRequest) (config.Settings, error) {
	if err := admit(c, "read the settings", req); err != nil {
		return config.Settings{}, err
	}
	return s.c.Settings(), nil
}

// SaveSettings saves req.Settings; they are in force at once and returned.
// Errors: errs.HubForbidden for an agent; errs.ConfigInvalid (nothing is
// saved); the settings file's write errors.
func (s *Service) SaveSettings(ctx context.Context, c service.Caller, req service.SaveSettingsRequest) (config.Settings, error) {
	if err := admit(c, "change the settings", req); err != nil {
		return config.Settings{}, err
	}
	if err := s.c.saveSettings(req.Settings); err != nil {
		return config.Settings{}, err
	}
	return s.c.Settings(), nil
}

// CheckSites checks req.Text as the "sites" setting, over the built-in
// sites (see site.Registry.CheckOverridesText). Errors: errs.HubForbidden
// for an agent; as CheckOverridesText.
func (s *Service) CheckSites(ctx context.Context, c service.Caller, req service.CheckSitesRequest) (service.SitesSetting, error) {
	if err := admit(c, "change the settings", req); err != nil {
		return service.SitesSetting{}, err
	}
	raws, err := site.Builtin().CheckOverridesText(req.Text)
	if err != nil {
		return service.SitesSetting{}, err
	}
	return service.SitesSetting{Sites: raws}, nil
}
