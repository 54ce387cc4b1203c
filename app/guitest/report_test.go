//go:build gui

package guitest

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestSaveReportOfAFailedRun sends a prompt that the simulated site fails
// after a partial answer, then saves the run's report from the live run
// with "Save report…" (the dialog answered by the dev binary from
// FERRY_DEV_SAVE_DIALOG_DIR) and from History, and checks the zip: REPORT.md
// naming the failure, the redacted page, the selectors, the screenshot, and
// not the prompt's text.
func TestSaveReportOfAFailedRun(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	saveDir := t.TempDir()
	_, _, _, page := composeOnSimEnv(t, 4*time.Minute, []string{"FERRY_DEV_SAVE_DIALOG_DIR=" + saveDir})

	secret := "Draft the secret Kestrel memo for the board"
	page.MustElement(`[data-testid=prompt]`).MustInput(secret + "\n" + sim.Directive(sim.ScenarioError))
	page.MustElement(`[data-testid=send]`).MustClick()
	page.MustElement(`[data-testid=live-run]`)
	if states := waitRunEnded(t, page, 1, 90*time.Second); states[0] != "failed" {
		t.Fatalf("the run ended %s, want failed", states[0])
	}
	session := evalStr(t, page, `() => window.go.app.Runs.Get(document.querySelector('[data-testid=live-run]').dataset.run).then(r => r.session.id)`)
	want := filepath.Join(saveDir, "ferry-report-"+session+".zip")

	check := func(t *testing.T) {
		t.Helper()
		zr, err := zip.OpenReader(want)
		if err != nil {
			t.Fatalf("the saved report: %v (saved: %v)", err, listDir(saveDir))
		}
		defer zr.Close()
		files := map[string]string{}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			files[f.Name] = string(b)
		}
		for _, name := range []string{"REPORT.md", "snapshot/page.html", "snapshot/selectors.json", "snapshot/screenshot.jpg", "journal.json", "envelope.json", "site.json", "environment.json"} {
			if _, ok := files[name]; !ok {
				t.Errorf("the report lacks %s", name)
			}
		}
		if md := files["REPORT.md"]; !strings.Contains(md, "`generation_error`") || !strings.Contains(md, "## What Ferry saw") {
			t.Errorf("REPORT.md does not read as the issue:\n%s", md)
		}
		for name, body := range files {
			if name != "snapshot/screenshot.jpg" && (strings.Contains(body, "Kestrel") || strings.Contains(body, secret)) {
				t.Errorf("%s holds the prompt's text", name)
			}
		}
	}

	t.Run("Save report on the failed live run writes the zip", func(t *testing.T) {
		page.MustElement(`[data-testid=live-run] [data-testid=run-save-report]`).MustClick()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => !!document.querySelector('[data-testid=toast]')`)); err != nil {
			t.Fatalf("no toast after Save report: %v", err)
		}
		check(t)
	})

	t.Run("History offers Save report on the failed run", func(t *testing.T) {
		if err := os.Remove(want); err != nil {
			t.Fatal(err)
		}
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		page.MustElement(`[data-testid=history-list] [role=option][data-id="` + session + `"]`).MustClick()
		page.MustElement(`[data-testid=save-report]`).MustClick()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(want); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		check(t)
	})
}

func listDir(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
