package clihost

import (
	"context"

	"github.com/ferrydesk/ferry/backend/cli"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/doctor"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
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
{"ok": bool, "version": "...", "checks": [{"id","title","status","detail","fix","required"}]}.

--sites checks the chat sites live and read-only in a browser: the owner's when the Ferry
app or ferry serve runs; else Ferry's own running browser; else Ferry's own browser,
launched on its profile for the check and quit after it, as ferry ask launches it.
The browser flags of ferry ask choose otherwise: --browser launch (with --headless,
--chromium, --browser-arg), --browser attach (Ferry's running browser) or --browser-url.
for each site (--site ID, repeatable; default every site you use: those of the open
tabs and of the history) it reuses an open tab of the site or opens one in the
background, and reports whether you are logged in (and how to log in), the
interstitial in the way if any, and for every selector role of the site (composer,
send, stop, model picker, turns, answer body, finished marker, file input, ...)
whether it resolves and which selector of the list matched. For a role that resolves
nowhere it lists the elements of the page that look like it, each with a ready-to-paste
entry for the "sites" setting that would fix it. It checks the stream capture
passively on the tab's last turn ("stream not captured on the last turn", with the
override that fixes it). It never types, clicks or changes the page. The exit code is
3 when a site is not ok, 0 otherwise; --json prints the typed report
{"ok": bool, "sites": [{"site","ok","loggedIn","interstitial","roles","stream","problems",...}]}.`,
		Flags: cli.SitesDoctorFlags,
		Run: func(ctx context.Context, inv *cli.Invocation) error {
			if inv.Flag("sites").(bool) {
				return cli.DoctorSites(ctx, inv)
			}
			if cli.SitesFlagsGiven(inv) {
				return errs.New(errs.BadInput, "--site and the browser flags go with --sites").WithHint("run `ferry doctor --sites --site ID`")
			}
			r := core.Doctor(ctx, core.DoctorOptions{DataDir: inv.DataDir(), FindOwner: client.FindOwner})
			var err error
			if inv.JSON() {
				err = inv.PrintJSON(r)
			} else {
				err = doctor.WriteText(inv.Stdout(), r)
			}
			if err != nil {
				return err
			}
			if !r.OK {
				failed := doctor.Failed(r)
				return cli.Reported(errs.New(errs.EnvironmentNotReady, "%d required check(s) failed", len(failed)))
			}
			return nil
		},
	})
}
