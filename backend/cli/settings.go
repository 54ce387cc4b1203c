package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

func init() {
	register(&command{
		name:  "settings",
		args:  "show|path|reset",
		short: "show the settings in force, print the settings file's path, or reset it to defaults",
		long: `show   prints the settings in force (defaults where the file is silent).
path   prints the data directory and the settings file.
reset  keeps the current settings file as settings.json.bak (never overwriting an
       older backup) and writes the defaults. Use it when the file is malformed.`,
		run: runSettings,
	})
}

func runSettings(ctx context.Context, inv *invocation) error {
	if len(inv.args) != 1 {
		return errs.New(errs.BadInput, "ferry settings needs exactly one of show, path, reset").WithHint("run `ferry help settings`")
	}
	paths, err := config.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	switch inv.args[0] {
	case "show":
		s, err := config.Load(paths.SettingsFile())
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(s)
		}
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return fmt.Errorf("encode settings: %w", err)
		}
		_, err = fmt.Fprintf(inv.stdout, "# %s\n%s\n", paths.SettingsFile(), b)
		return err
	case "path":
		if inv.json {
			return inv.printJSON(map[string]string{"dataDir": paths.DataDir, "configDir": paths.ConfigDir, "settingsFile": paths.SettingsFile()})
		}
		_, err := fmt.Fprintf(inv.stdout, "data dir:      %s\nsettings file: %s\n", paths.DataDir, paths.SettingsFile())
		return err
	case "reset":
		backup, err := config.Reset(paths.SettingsFile())
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(map[string]string{"settingsFile": paths.SettingsFile(), "backup": backup})
		}
		if backup != "" {
			_, err = fmt.Fprintf(inv.stdout, "kept the old settings as %s\nwrote defaults to %s\n", backup, paths.SettingsFile())
		} else {
			_, err = fmt.Fprintf(inv.stdout, "wrote defaults to %s\n", paths.SettingsFile())
		}
		return err
	}
	return errs.New(errs.BadInput, "unknown settings action %q: use show, path or reset", inv.args[0])
}
