package clihost

import (
	"context"
	"github.com/ferrydesk/ferry/backend/cli"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
)

func init() {
	cli.Register(cli.Command{
		Name:  "doctor",
		Short: "check that this machine can run Ferry, and say how to fix what it cannot",
		Long: `Checks the browser (Chromium or Chrome, and its version), the display the desktop
app needs, WebKitGTK, the data directory, the settings file and the history store
(every table's checksums; a damaged file is named with the backup to restore).
Each check prints its status and, when it is not ok, the fix. The exit code is 3
when a required check fails, 0 otherwise. With --json the report is one JSON object
{"ok": bool, "version": "...", "checks": [{"id","title","status","detail","fix","required"}]}.`,
		Run: func(ctx context.Context, inv *cli.Invocation) error {
			r := core.Doctor(ctx, core.DoctorOptions{DataDir: inv.DataDir()})
			var err error
			if inv.JSON() {
				err = inv.PrintJSON(r)
			} else {
				err = r.WriteText(inv.Stdout())
			}
			if err != nil {
				return err
			}
			if !r.OK {
				failed := r.Failed()
				return cli.Reported(errs.New(errs.EnvironmentNotReady, "%d required check(s) failed", len(failed)))
			}
			return nil
		},
	})
}
