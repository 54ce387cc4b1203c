package clihost

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/cli"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

func init() { cli.SetRestore(restoreSessions) }

// restored is what `ferry sessions restore --json` prints.
type restored struct {
	From       string `json:"from"`
	StoreDir   string `json:"storeDir"`
	Sessions   int    `json:"sessions"`
	Keys       int    `json:"keys"`
	DamagedDir string `json:"damagedDir,omitempty"`
	// Checksummed says the backup matched the SHA-256 recorded when it was
	// taken (false: none was recorded beside it).
	Checksummed bool `json:"checksummed"`
}

// restoreSessions is `ferry sessions restore [FILE]`: store.Restore of FILE,
// or of the newest backup in the data directory's backups/, into the data
// directory's store. Errors: errs.BadInput when there is no backup to
// restore; store.Restore's (errs.StoreBusy while an owner holds the data
// directory, nothing moved).
func restoreSessions(ctx context.Context, inv *cli.Invocation, file string) error {
	paths, err := config.ResolvePaths(inv.DataDir())
	if err != nil {
		return err
	}
	if file == "" {
		have, err := store.Backups(paths.BackupsDir())
		if err != nil {
			return err
		}
		if len(have) == 0 {
			return errs.New(errs.BadInput, "no backup of the history in %s", paths.BackupsDir()).
				WithEvidence("dir", paths.BackupsDir()).
				WithHint("name a backup file: `ferry sessions restore FILE`; the app and `ferry serve` write one when they close and daily while they run")
		}
		file = have[0].Path
	}
	r, err := store.Restore(ctx, paths.StoreDir(), file, store.WithRole("ferry sessions restore"))
	if err != nil {
		if e := errs.From(err); e.Code == errs.StoreBusy {
			return e.WithHint("close the app or stop `ferry serve`, then run `ferry sessions restore` again: the store cannot be replaced while it is open")
		}
		return err
	}
	out := restored{From: r.From, StoreDir: r.StoreDir, Sessions: r.Sessions, Keys: r.Keys, DamagedDir: r.DamagedDir, Checksummed: r.Checksummed}
	if inv.JSON() {
		return inv.PrintJSON(out)
	}
	w := inv.Stdout()
	fmt.Fprintf(w, "restored %d sessions (%d records) from %s into %s\n", out.Sessions, out.Keys, out.From, out.StoreDir)
	if out.Checksummed {
		fmt.Fprintln(w, "the backup matched the SHA-256 recorded when it was taken")
	} else {
		fmt.Fprintf(w, "no SHA-256 was recorded beside the backup (%s): it was loaded without that check\n", filepath.Base(out.From)+store.ChecksumSuffix)
	}
	if out.DamagedDir != "" {
		fmt.Fprintf(w, "the store it replaced is kept at %s (delete it yourself once the history is as you want it)\n", out.DamagedDir)
	}
	return nil
}
