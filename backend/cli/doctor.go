package cli

import (
	"context"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
)

func init() {
	register(&command{
		name:  "doctor",
		short: "check that this machine can run Ferry, and say how to fix what it cannot",
		long: `Checks the browser (Chromium or Chrome, and its version), the display the desktop
app needs, WebKitGTK, the data directory, the settings file and the history store.
Each check prints its status and, when it is not ok, the fix. The exit code is 3
when a required check fails, 0 otherwise. With --json the report is one JSON object
{"ok": bool, "version": "...", "checks": [{"id","title","status","detail","fix","required"}]}.`,
		run: func(ctx context.Context, inv *invocation) error {
			r := core.Doctor(ctx, core.DoctorOptions{DataDir: inv.dataDir})
			var err error
			if inv.json {
				err = inv.printJSON(r)
			} else {
				err = r.WriteText(inv.stdout)
			}
			if err != nil {
				return err
			}
			if !r.OK {
				failed := r.Failed()
				return errReported{errs.New(errs.EnvironmentNotReady, "%d required check(s) failed", len(failed))}
			}
			return nil
		},
	})
}
