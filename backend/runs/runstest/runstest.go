// Package runstest opens a test's data directory as an owner opens it (its
// settings, its store and the history over it), for the tests of packages
// runs and jobs, which core composes and so cannot use.
package runstest

import (
	"context"
	"testing"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/store"
)

// Dir is an open data directory of a test.
type Dir struct {
	Paths    config.Paths
	settings config.Settings
	store    *store.Store
	history  *job.Repo
}

// Open opens the data directory dir (a t.TempDir()) as core.Open does and
// the history over its store; the store closes at the end of t, after
// whatever the test registered with t.Cleanup later.
func Open(t testing.TB, dir string) *Dir {
	t.Helper()
	ctx := context.Background()
	paths, err := config.ResolvePaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := paths.EnsureDataDir(); err != nil {
		t.Fatal(err)
	}
	settings, err := config.Load(paths.SettingsFile())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, paths.StoreDir(), store.WithRole("serve"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	repo, err := job.OpenRepo(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return &Dir{Paths: paths, settings: settings, store: st, history: repo}
}

// Store is the open store.
func (d *Dir) Store() *store.Store { return d.store }

// Settings are the settings file's, or the defaults.
func (d *Dir) Settings() config.Settings { return d.settings }

// History is the history over the store.
func (d *Dir) History(context.Context) (*job.Repo, error) { return d.history, nil }
