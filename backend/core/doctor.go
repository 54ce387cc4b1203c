package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/doctor"
	"github.com/ferrydesk/ferry/backend/version"
)

// DoctorOptions select the data directory to check.
type DoctorOptions struct {
	DataDir string // as Options.DataDir
	// FindOwner finds a running owner of the data directory, whose store
	// is then in use as it should be (hub/client.FindOwner).
	FindOwner doctor.OwnerFinder
}

// Doctor runs every check for the data directory without holding it: the
// store check opens and closes the store.
func Doctor(ctx context.Context, opts DoctorOptions) doctor.Report {
	paths, err := config.ResolvePaths(opts.DataDir)
	if err != nil {
		return doctor.NewReport(version.String(), []doctor.Check{pathsCheck(err)})
	}
	p := probe(paths)
	p.FindOwner = opts.FindOwner
	return doctor.Run(ctx, paths, p, version.String())
}

// doctor runs the checks for this core's data directory. The store check
// reports the store this process holds instead of opening it a second time.
func (c *Core) doctor(ctx context.Context) doctor.Report {
	p := probe(c.paths)
	checks := []doctor.Check{
		doctor.Browser(ctx, p),
		doctor.Display(p),
		doctor.WebKit(p),
		doctor.DataDir(c.paths),
		doctor.Settings(c.paths),
		{ID: "store", Title: "History store", Required: true, Status: doctor.OK,
			Detail: "open in this process: " + c.paths.StoreDir()},
	}
	return doctor.NewReport(version.String(), checks)
}

func probe(paths config.Paths) doctor.Probe {
	binary := ""
	if s, err := config.Load(paths.SettingsFile()); err == nil {
		binary = s.Browser.Binary
	}
	return doctor.ThisMachine(launch.FindBinary, launch.BinaryVersion, binary)
}

func pathsCheck(err error) doctor.Check {
	return doctor.Check{ID: "datadir", Title: "Data directory", Required: true, Status: doctor.Fail, Detail: err.Error(),
		Fix: "pass a usable --data-dir or FERRY_DATA_DIR"}
}
