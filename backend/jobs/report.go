package jobs

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/report"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/version"
)

// ReportSession builds the failure report of a run (an unambiguous id
// prefix is enough): its snapshot, journal and envelope, the versions, and
// the site definition in force with the user's overrides (package report).
// Errors: as ShowSession; errs.BadInput for a run that did not fail;
// errs.ConfigInvalid for settings whose site overrides do not merge.
func (h *Runner) ReportSession(ctx context.Context, id string) (service.Report, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return service.Report{}, err
	}
	run, journal, err := runs.ShowSession(ctx, repo, id)
	if err != nil {
		return service.Report{}, err
	}
	snap, err := repo.Snapshot(ctx, run.ID)
	if err != nil {
		return service.Report{}, err
	}
	in := report.Input{Session: run, Journal: journal, Snapshot: snap, Now: time.Now().UTC(),
		Env: report.Environment{Ferry: ferryVersion(), OS: osDescription()}}
	if snap != nil {
		in.Env.Chrome = snap.Browser
	}
	settings := h.d.Settings()
	reg, err := runs.SiteRegistry(settings)
	if err != nil {
		return service.Report{}, err
	}
	if st, err := reg.Get(run.Site); err == nil {
		in.Site = &st
	}
	in.Overrides = siteOverrides(settings.Sites, run.Site)
	zip, files, err := report.Build(in)
	if err != nil {
		return service.Report{}, err
	}
	return service.Report{ID: run.ID, Name: service.ReportName(run.ID), Files: files, Zip: zip}, nil
}

// siteOverrides are the raw settings entries that override site id.
func siteOverrides(raw []json.RawMessage, id string) []json.RawMessage {
	var out []json.RawMessage
	for _, r := range raw {
		var o site.Override
		if json.Unmarshal(r, &o) == nil && o.ID == id {
			out = append(out, r)
		}
	}
	return out
}

func ferryVersion() string {
	v := version.Get()
	if v.Commit != "" {
		return v.Version + " (" + v.Commit + ", " + v.Go + ")"
	}
	return v.Version + " (" + v.Go + ")"
}

// osDescription is "linux/amd64" with the distribution's name when
// /etc/os-release gives one.
func osDescription() string {
	d := runtime.GOOS + "/" + runtime.GOARCH
	f, err := os.Open("/etc/os-release")
	if err != nil {
		return d
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
			return d + ", " + strings.Trim(v, `"`)
		}
	}
	return d
}
