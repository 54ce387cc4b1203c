// Package runs is the pipeline of one run in this process: an ask (Ask),
// a code run (RunCode, wiring package codemode), the reattach of a run in
// flight (Reattach, with PickSession, CheckFresh and DoctorSessions of the
// session commands) and the retrieval of a conversation's zips (Retrieve).
// It resolves the browser, the tab (leased among the runs' tabs, package
// tabs), the site's adapter and the run's files, then drives the run with
// a job.Runner, which journals it. The owner's jobs (package jobs) run
// through it; it knows neither jobs nor callers.
package runs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt/templates"
	"github.com/ferrydesk/ferry/backend/store"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// Deps is what the runs use of the data directory their owner holds (core
// opens it and passes its parts): nothing of it is a variable of the
// package or a value of a context.
type Deps struct {
	// Paths are the data directory's.
	Paths config.Paths
	// Store is the open store, nil once it closed: the jobs, the templates
	// and the runs are kept there.
	Store func() *store.Store
	// Settings are the settings in force, read at each use.
	Settings func() config.Settings
	// History is the data directory's one session repository, which every
	// run writes through.
	History func(ctx context.Context) (*job.Repo, error)
	// Leases are the tabs the runs hold, shared by every run of the owner
	// whatever its browser.
	Leases *tabs.Leases
	// Ledger learns what each run found of its tab.
	Ledger *tabs.Ledger
}

// Pipeline runs prompts over one data directory's settings, history,
// templates and tab leases.
type Pipeline struct {
	d         Deps
	templates templates.Repo
}

// New returns the pipeline over d.
func New(d Deps) *Pipeline { return &Pipeline{d: d, templates: templates.New(d.Store)} }
