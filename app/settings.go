package app

import (
	"context"
	"errors"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Settings is the frontend's API for the settings file.
type Settings struct {
	sh *shell
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
	err := s.sh.withCore(func(c *core.Core) error {
		out = c.Settings()
		return nil
	})
	return out, err
}

// Save validates and saves the settings; on success they are in force and
// returned. An invalid value is a ConfigInvalid envelope and changes nothing.
func (s *Settings) Save(next config.Settings) (config.Settings, error) {
	var out config.Settings
	err := s.sh.withCore(func(c *core.Core) error {
		if err := c.SaveSettings(next); err != nil {
			return err
		}
		out = c.Settings()
		return nil
	})
	if err != nil {
		return config.Settings{}, rejectedValue(err)
	}
	s.sh.emitter().Emit(EventSettingsChanged, out)
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
	return ResetResult{Backup: backup}, nil
}

func (s *shell) resetSettings(ctx context.Context) (string, error) {
	s.mu.Lock()
	paths, err := core.ResolvePaths("")
	if s.core != nil {
		paths, err = s.core.Paths(), nil
	}
	if err != nil {
		s.mu.Unlock()
		return "", err
	}
	// The core caches the settings: close it so the reopened one reads the
	// defaults, and reopen even when the reset failed so the app keeps working.
	s.closeLocked()
	backup, resetErr := core.ResetSettings(paths)
	s.openLocked(ctx)
	openErr, c := s.openErr, s.core
	s.mu.Unlock()

	em := s.emitter()
	em.Emit(EventStatusChanged, s.status())
	if c != nil {
		em.Emit(EventSettingsChanged, c.Settings())
	}
	if resetErr != nil {
		return "", resetErr
	}
	return backup, openErr
}
