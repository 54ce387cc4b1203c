package cli

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestReportWritesTheZipOfAFailedRunOnce(t *testing.T) {
	t.Parallel()
	dd := t.TempDir()
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	seedSessions(t, dd,
		job.Session{ID: "run-fail", Site: "deepseek", Prompt: "a private question", State: job.StateFailed, StateBefore: job.StateComposed, Created: base,
			Error: errs.New(errs.SendUnconfirmed, "something covers the DeepSeek send control; nothing was clicked").WithEvidence("covered_by", "div#ds-download-app")},
		job.Session{ID: "run-done", Site: "chatgpt", Prompt: "fine", Answer: "yes", State: job.StateDone, Created: base.Add(time.Hour)},
	)
	func() {
		ctx := context.Background()
		c, err := core.Open(ctx, core.Options{DataDir: dd})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		repo, err := c.History(ctx)
		if err != nil {
			t.Fatal(err)
		}
		snap := &provider.Snapshot{At: base, URL: "https://chat.deepseek.com/", Title: "DeepSeek", Viewport: "780x437", DOM: "<html><body><div id=\"ds-download-app\"></div></body></html>",
			Browser: "Chrome/156", Roles: []provider.RoleProbe{{Role: site.RoleSend, Selectors: []provider.SelectorProbe{{Selector: ".ds-button--primary", Matches: 1, Visible: 1}}}}}
		if err := repo.PutSnapshot(ctx, "run-fail", snap); err != nil {
			t.Fatal(err)
		}
	}()
	d := "--data-dir=" + dd
	out := filepath.Join(t.TempDir(), "r.zip")

	t.Run("the zip of a failed run is written with its snapshot and REPORT.md", func(t *testing.T) {
		r := ferry(t, nil, "report", "run-f", "--out", out, d)
		if r.code != 0 || !strings.Contains(r.stdout, out) {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		zr, err := zip.OpenReader(out)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		names := map[string]bool{}
		for _, f := range zr.File {
			names[f.Name] = true
		}
		for _, want := range []string{"REPORT.md", "snapshot/page.html", "snapshot/selectors.json", "journal.json", "envelope.json", "site.json", "environment.json"} {
			if !names[want] {
				t.Errorf("the zip lacks %s: %v", want, names)
			}
		}
	})
	t.Run("an existing file is not replaced without --force", func(t *testing.T) {
		before, _ := os.ReadFile(out)
		if err := os.WriteFile(out, []byte("mine"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := ferry(t, nil, "report", "run-fail", "--out", out, d)
		if r.code != exitOf(errs.BadInput) || !strings.Contains(r.stderr, "--force") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if b, _ := os.ReadFile(out); string(b) != "mine" {
			t.Fatalf("the file was replaced")
		}
		if r := ferry(t, nil, "report", "run-fail", "--out", out, "--force", d); r.code != 0 {
			t.Fatalf("exit %d with --force: %s", r.code, r.stderr)
		}
		if b, _ := os.ReadFile(out); len(b) != len(before) {
			t.Fatalf("the forced report is %d bytes, the first %d", len(b), len(before))
		}
	})
	t.Run("a run that did not fail has no report", func(t *testing.T) {
		r := ferry(t, nil, "report", "run-done", "--out", filepath.Join(t.TempDir(), "x.zip"), d)
		if r.code != exitOf(errs.BadInput) {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("a run that does not exist is not found", func(t *testing.T) {
		r := ferry(t, nil, "report", "run-nope", d)
		if r.code != exitOf(errs.SessionNotFound) {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
}
