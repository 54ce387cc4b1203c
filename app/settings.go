package app

import (
	"context"
	"errors"

	"github.com/ferrydesk/ferry/app/internal/extras"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Settings is the frontend's API for the settings file.
type Settings struct {
	sh *shell
	ex *extras.Extras // re-applies the hotkey after a change; nil in tests without a window
}

// ResetResult says where the replaced settings file was kept.
type ResetResult struct {
	// Backup is the path of the kept file, "" when there was none.
	Backup string `json:"backup"`
}

// Get returns the settings in force, or the envelope that kept the core from
// opening (ConfigInvalid for a malformed settings file).
func (s *Settings) Get() (config.Settings, error) {
	var out config.Settings
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.Settings(context.Background(), desktopCaller, service.SettingsRequest{})
		return err
	})
	return out, err
}

// Save validates and saves the settings; on success they are in force and
// returned. An invalid value is a ConfigInvalid envelope and changes nothing.
func (s *Settings) Save(next config.Settings) (config.Settings, error) {
	var out config.Settings
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.SaveSettings(context.Background(), desktopCaller, service.SaveSettingsRequest{Settings: next})
		return err
	})
	if err != nil {
		return config.Settings{}, rejectedValue(err)
	}
	s.sh.emitter().Emit(EventSettingsChanged, out)
	s.ex.SettingsChanged(out)
	s.sh.rememberSiteNames() // the sites setting may have named one
	return out, nil
}

// rejectedValue gives a value the UI sent, and the core refused, a hint for
// someone at a form rather than at the file (the catalog's config_invalid
// hint speaks of the file's line).
func rejectedValue(err error) error {
	var fe *config.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	return errs.From(err).WithHint("choose one of the values the message allows; nothing was saved")
}

// Reset keeps the current settings file as a .bak beside it, writes the
// defaults and reopens the core with them. It works when the file was too
// malformed for the core to open; the error is the reset's, or else the
// reopen's (StoreBusy, say).
func (s *Settings) Reset() (ResetResult, error) {
	backup, err := s.sh.resetSettings(context.Background())
	if err != nil {
		return ResetResult{}, err
	}
	if cur, gerr := s.Get(); gerr == nil {
		s.ex.SettingsChanged(cur)
	}
	return ResetResult{Backup: backup}, nil
}

func (s *shell) resetSettings(ctx context.Context) (string, error) {
	s.mu.Lock()
	paths, err := s.paths()
	if err != nil {
		s.mu.Unlock()
		return "", err
	}
	// The core caches the settings: close it so the reopened one reads the
	// defaults, and reopen even when the reset failed so the app keeps working.
	s.closeLocked()
	backup, resetErr := resetSettingsFile(paths)
	s.openLocked(ctx)
	openErr := s.openErr
	s.mu.Unlock()

	em := s.emitter()
	em.Emit(EventStatusChanged, s.status())
	var cur config.Settings
	if s.withService(func(svc service.Service) error {
		var err error
		cur, err = svc.Settings(ctx, desktopCaller, service.SettingsRequest{})
		return err
	}) == nil {
		em.Emit(EventSettingsChanged, cur)
	}
	if resetErr != nil {
		return "", resetErr
	}
	return backup, openErr
}

// CheckSites validates text as the "sites" setting (a JSON array of site
// overrides and custom sites) without saving it: its JSON syntax, each
// entry's fields, and the sites the entries make when merged over the
// built-in ones. The error is a config_invalid (or site_incomplete)
// envelope with evidence "line" and "column" (1-based, in text), "entry"
// (the 1-based entry) when one is to blame, and field "sites"; nil when
// text is good.
func (s *Settings) CheckSites(text string) error {
	_, err := s.checkSites(text)
	return err
}

func (s *Settings) checkSites(text string) (service.SitesSetting, error) {
	var out service.SitesSetting
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.CheckSites(context.Background(), desktopCaller, service.CheckSitesRequest{Text: text})
		return err
	})
	return out, err
}

// SaveSites validates text as CheckSites does and saves it as the "sites"
// setting; on success the new settings are in force and returned. Errors:
// as CheckSites (nothing is saved), and as Save.
func (s *Settings) SaveSites(text string) (config.Settings, error) {
	checked, err := s.checkSites(text)
	if err != nil {
		return config.Settings{}, err
	}
	cur, err := s.Get()
	if err != nil {
		return config.Settings{}, err
	}
	cur.Sites = checked.Sites
	return s.Save(cur)
}

// CheckSitesLive checks the sites live and read-only in the owner's
// browser (ids; none: every site the user uses): login, interstitial,
// every selector role with candidates and overrides for a missing one, and
// the stream of the last turn. Errors: the browser's envelopes (it is
// connected for this when it is not), errs.UnknownSite.
func (s *Settings) CheckSitesLive(ids []string) (service.SitesReport, error) {
	var out service.SitesReport
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.DoctorSites(s.sh.calls, desktopCaller, service.SitesDoctorRequest{Sites: ids})
		return err
	})
	return out, err
}

// ApplySiteOverride adds override (a "sites" entry from CheckSitesLive)
// to the "sites" setting, checked as CheckSites checks it, and saves it;
// the new settings are in force and returned. Errors: as CheckSites
// (nothing is saved).
func (s *Settings) ApplySiteOverride(override string) (config.Settings, error) {
	var out config.Settings
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.ApplySiteOverride(context.Background(), desktopCaller, service.ApplySiteOverrideRequest{Override: override})
		return err
	})
	if err != nil {
		return config.Settings{}, err
	}
	s.sh.emitter().Emit(EventSettingsChanged, out)
	s.ex.SettingsChanged(out)
	s.sh.rememberSiteNames()
	return out, nil
}

// Locations are where this window's data lives, for the Settings view.
type Locations struct {
	DataDir      string `json:"dataDir"`
	ConfigDir    string `json:"configDir"`
	SettingsFile string `json:"settingsFile"`
	StoreDir     string `json:"storeDir"`
	// ProfileDir is the browser profile Ferry launches Chromium with.
	ProfileDir string `json:"profileDir"`
	// ArtifactsDir is where verified zips are saved (artifacts.outputDir
	// when set).
	ArtifactsDir string `json:"artifactsDir"`
	// HubFile holds the local gateway's port and owner token (mode 0600).
	HubFile string `json:"hubFile"`
}

// Locations returns the data directory's paths. Errors: the reason the
// paths could not be resolved (an unusable FERRY_DATA_DIR).
func (s *Settings) Locations() (Locations, error) {
	p, err := s.sh.paths()
	if err != nil {
		return Locations{}, err
	}
	loc := Locations{DataDir: p.DataDir, ConfigDir: p.ConfigDir, SettingsFile: p.SettingsFile(), StoreDir: p.StoreDir(),
		ProfileDir: p.ProfileDir(), ArtifactsDir: p.ArtifactsDir(), HubFile: p.HubFile()}
	if cur, err := s.Get(); err == nil && cur.Artifacts.OutputDir != "" {
		loc.ArtifactsDir = cur.Artifacts.OutputDir
	}
	return loc, nil
}
