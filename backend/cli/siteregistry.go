package cli

import (
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/site"
)

// siteRegistry is the built-in sites with the user's overrides from
// settings (for the commands not yet written against the service).
func siteRegistry(paths config.Paths) (*site.Registry, error) {
	s, err := config.Load(paths.SettingsFile())
	if err != nil {
		return nil, err
	}
	return core.SiteRegistry(s)
}
