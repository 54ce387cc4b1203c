// Package core is the composition root shared by the desktop app, the CLI and
// the server: Open resolves the data directory, loads the settings and opens
// the store; StartOwner composes over the *Core it returns the packages that
// do the work (the run pipeline of package runs, the owner's jobs of
// package jobs, the owner's browser, the sites' logins and checks) and the
// one Service in front of them, which every face calls and which alone
// decides what each caller may see and do.
package core

import (
	"context"
	"fmt"
	"sync"

	"github.com/ferrydesk/ferry/backend/clients"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// Options say which data directory to open and who opens it.
type Options struct {
	// DataDir overrides the data directory (the --data-dir flag); "" means
	// $FERRY_DATA_DIR, then the platform default.
	DataDir string
	// Role names the opener ("desktop", "cli", "serve"); a second process
	// that finds the store busy is told this role.
	Role string
	// Owner marks a process that holds the data directory for long (the
	// desktop app, ferry serve): it backs the history up while it runs,
	// when the newest backup is older than store.BackupEvery, and once
	// more when it closes cleanly (store.RollingBackups).
	Owner bool
}

// Core owns one data directory: its settings and its store.
type Core struct {
	paths config.Paths
	store *store.Store
	hist  history               // the one session repository, see History
	bk    *store.RollingBackups // the owner's rolling backups; nil unless Options.Owner
	// ledger is what the last check or run learned of each tab.
	ledger tabs.Ledger
	// leases are the tabs this core's runs hold (see package tabs), shared
	// by every run of the core whatever its browser.
	leases *tabs.Leases

	clients *clients.Registry // the agents that may use the local API
	pairing *clients.Pairing  // the open pairing codes, shared by every Service of this core

	mu       sync.RWMutex
	settings config.Settings
}

// Open resolves the paths, makes sure the data directory is writable, loads
// the settings and opens the store. It returns envelopes: BadInput for an
// unusable data directory value, DataDirUnwritable, ConfigInvalid for a
// malformed settings file (nothing is opened then), StoreBusy when another
// process owns the data directory, StoreSchemaNewer.
func Open(ctx context.Context, opts Options) (*Core, error) {
	paths, err := config.ResolvePaths(opts.DataDir)
	if err != nil {
		return nil, err
	}
	if err := paths.EnsureDataDir(); err != nil {
		return nil, err
	}
	settings, err := config.Load(paths.SettingsFile())
	if err != nil {
		return nil, err
	}
	role := opts.Role
	if role == "" {
		role = "ferry"
	}
	st, err := store.Open(ctx, paths.StoreDir(), store.WithRole(role))
	if err != nil {
		return nil, err
	}
	c := &Core{paths: paths, store: st, settings: settings, clients: clients.New(st), pairing: clients.NewPairing(0, nil), leases: tabs.NewLeases()}
	if opts.Owner {
		c.bk = st.StartBackups(paths.BackupsDir())
	}
	return c, nil
}

// Close releases the store; an owner (Options.Owner) first writes a backup
// of the history. It is safe to call once; later calls are no-ops. Errors:
// errs.StoreIO when the store does not close; errs.DiskFull when the disk
// has no room for the store's last flush (nothing acknowledged is lost, see
// store.Close); the backup's error, after the store closed, when only the
// backup failed.
func (c *Core) Close() error {
	c.bk.Stop()   // before the store they read goes away
	c.hist.stop() // likewise
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.store == nil {
		return nil
	}
	berr := c.bk.Close(context.Background())
	err := c.store.Close()
	c.store = nil
	if errs.Has(err, errs.DiskFull) {
		// The store stays open until the process ends; its log keeps the
		// history for the next open.
		return err
	}
	if err != nil {
		return errs.Wrap(err, errs.StoreIO, "close store %s: %v", c.paths.StoreDir(), err)
	}
	return berr
}

// runsDeps is what the runs and jobs of this core use of its data
// directory.
func (c *Core) runsDeps() runs.Deps {
	return runs.Deps{Paths: c.paths, Store: c.Store, Settings: c.Settings, History: c.History, Leases: c.leases, Ledger: &c.ledger}
}

// sites returns the built-in site registry with the overrides of the
// settings in force. Errors: ConfigInvalid for an override that does not
// parse or merge.
func (c *Core) sites() (*site.Registry, error) { return runs.SiteRegistry(c.Settings()) }

// Paths returns the resolved directories.
func (c *Core) Paths() config.Paths { return c.paths }

// Store returns the open store.
func (c *Core) Store() *store.Store { return c.store }

// OnTabStatesChanged sets fn (which must return quickly) to be told each
// time what was learned about a tab changes its state: the desktop then
// lists the tabs again.
func (c *Core) OnTabStatesChanged(fn func()) { c.ledger.OnChange(fn) }

// LastBackup is the newest backup this process wrote as the owner (zero
// when none).
func (c *Core) LastBackup() store.BackupFile { return c.bk.Last() }

// Settings returns the settings in force.
func (c *Core) Settings() config.Settings {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.settings
}

// saveSettings validates s and saves it atomically; on success it is in
// force at once. An invalid s is a ConfigInvalid envelope and changes nothing.
func (c *Core) saveSettings(s config.Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := config.Save(c.paths.SettingsFile(), s); err != nil {
		return err
	}
	c.settings = s
	return nil
}

// ResetSettings keeps the current settings file as a .bak beside it and
// writes the defaults. It returns the backup's path ("" when there was no
// file to keep).
func ResetSettings(paths config.Paths) (string, error) {
	backup, err := config.Reset(paths.SettingsFile())
	if err != nil {
		return "", fmt.Errorf("reset settings: %w", err)
	}
	return backup, nil
}
