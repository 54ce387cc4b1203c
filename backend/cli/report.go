package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	register(&command{
		name:  "report",
		args:  "SESSION [--out FILE] [--force]",
		short: "write the failure report of a run: one zip to attach to an issue",
		long: `Writes one zip for a run that failed (an unambiguous id prefix is enough):
REPORT.md, which reads as an issue (what was asked of which site, which step failed,
what Ferry saw, what it expected); the tab at the failure (its page with form values,
long texts, query strings, cookies, tokens and e-mail addresses redacted, its console
errors, the selectors tried for each role and what each matched, and a screenshot);
the run's journal and envelope; Ferry's, Chromium's and the OS's versions; the site
definition in force with your overrides. The prompt's text is not in it.

The screenshot shows the page as it was and cannot be redacted: look at it before
you share the zip, or turn screenshots off with "run": {"noFailureScreenshot": true}
in settings.json.

--out FILE   where to write (default ferry-report-<id>.zip in the current folder);
             an existing file is not replaced unless --force is given.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("out", "", "the zip to write (default ferry-report-<id>.zip)")
			fs.Bool("force", false, "replace an existing --out file")
		},
		run: runReport,
	})
}

// runReport is ferry report, written once against service.Service: the
// owner (or the in-process service) builds the zip, and this process writes
// it, atomically.
func runReport(ctx context.Context, inv *invocation) error {
	if len(inv.args) != 1 {
		return errs.New(errs.BadInput, "ferry report takes one SESSION, got %d arguments", len(inv.args)).WithHint("run `ferry help report`")
	}
	req := service.ReportRequest{ID: inv.args[0]}
	if err := req.Validate(); err != nil {
		return err
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	rep, err := svc.ReportSession(ctx, cliCaller, req)
	if err != nil {
		return err
	}
	out := inv.flag("out").(string)
	if out == "" {
		out = rep.Name
	}
	if abs, err := filepath.Abs(out); err == nil {
		out = abs
	}
	if err := service.WriteFileAtomic(out, rep.Zip, inv.flag("force").(bool)); err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(struct {
			ID    string   `json:"id"`
			File  string   `json:"file"`
			Bytes int      `json:"bytes"`
			Files []string `json:"files"`
		}{rep.ID, out, len(rep.Zip), rep.Files})
	}
	_, err = fmt.Fprintf(inv.stdout, "wrote the report of %s to %s (%d bytes, %d files)\n", rep.ID, safetext.Line(out), len(rep.Zip), len(rep.Files))
	return err
}
