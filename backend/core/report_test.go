package core

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Secrets the redaction test plants in the simulator's page, beside the
// prompt's own text.
const (
	plantedBearer = "sk-planted-Token-8d7f6e5a4b3c2d1e"
	plantedCookie = "CookieValue7Q2x9w"
	plantedEmail  = "jane.planted@example.org"
	plantedSig    = "SignedQuery5f3e2d1c"
	plantedCSRF   = "HiddenCsrf9a8b7c6d"
	plantedPrompt = "Plan the quiet launch of Project Nightjar, codes 4417-ALPHA"
)

// plantJS puts the secrets where pages keep them: an account menu with the
// e-mail, a signed download link, a debug line with the bearer token and
// the cookie, a hidden CSRF field, a cookie, and a console error naming
// the token and the e-mail.
const plantJS = `() => {
  document.cookie = 'ferry_test_session=` + plantedCookie + `; path=/';
  const d = document.createElement('div');
  d.id = 'planted'; d.className = 'account-menu';
  d.innerHTML = '<span class="email" aria-label="Account">` + plantedEmail + `</span>' +
    '<a class="dl" href="https://files.example.com/dl/report.zip?X-Amz-Signature=` + plantedSig + `&amp;expires=1">report.zip</a>' +
    '<code class="debug">Authorization: Bearer ` + plantedBearer + `</code>' +
    '<span class="cookie-echo">ferry_test_session=` + plantedCookie + `</span>' +
    '<input type="hidden" name="csrf" value="` + plantedCSRF + `">';
  document.body.appendChild(d);
  console.error('fetch failed with Bearer ` + plantedBearer + ` for ` + plantedEmail + `');
}`

// readZip returns the files of a zip by name.
func readZip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("the report is not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("read %s: %v", f.Name, err)
		}
		out[f.Name] = body
	}
	return out
}

// TestAFailedRunKeepsASnapshotAndItsReportHoldsNoSecret fails a run on the
// simulator (the site errs after a partial answer) in a page where secrets
// were planted, and checks the report: every part is there, it reads as an
// issue, and no secret and no prompt text is in any file but the
// screenshot (a picture of the page, which the README says to look at, and
// which the setting turns off: checked too).
func TestAFailedRunKeepsASnapshotAndItsReportHoldsNoSecret(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Open(ctx, Options{DataDir: t.TempDir(), Role: "desktop"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	svc := StartOwner(c, OwnerOptions{}).Service
	owner := service.Owner(service.FaceCLI)

	openTab := func(t *testing.T) *browser.Page {
		t.Helper()
		tab, err := h.Browser.OpenTab(ctx, "about:blank")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tab.Close(context.Background()) })
		if err := tab.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
			t.Fatal(err)
		}
		return tab
	}
	fail := func(t *testing.T) *job.Session {
		t.Helper()
		tab := openTab(t)
		if _, err := tab.Eval(ctx, plantJS); err != nil {
			t.Fatal(err)
		}
		s, err := runs.New(c.runsDeps()).Ask(ctx, runs.AskRequest{Site: "chatgpt", TargetID: tab.ID(), Prompt: plantedPrompt + "\n" + sim.Directive(sim.ScenarioError),
			Browser: h.Browser, Origin: job.OriginCLI, Timeout: 45 * time.Second})
		if errs.CodeOf(err) != errs.GenerationError || s == nil || s.State != job.StateFailed {
			t.Fatalf("the run: %v (state %v), want a failed run with generation_error", err, s)
		}
		return s
	}

	t.Run("the report of a failed run holds every part, reads as an issue and no secret", func(t *testing.T) {
		s := fail(t)
		repo, err := c.History(ctx)
		if err != nil {
			t.Fatal(err)
		}
		snap, err := repo.Snapshot(ctx, s.ID)
		if err != nil || snap == nil {
			t.Fatalf("the failed run kept no snapshot: %v", err)
		}
		rep, err := svc.ReportSession(ctx, owner, service.ReportRequest{ID: s.ID})
		if err != nil {
			t.Fatalf("report: %v", err)
		}
		files := readZip(t, rep.Zip)
		for _, name := range []string{"REPORT.md", "session.json", "journal.json", "envelope.json", "environment.json", "site.json",
			"snapshot/page.html", "snapshot/selectors.json", "snapshot/console.txt", "snapshot/page.json", "snapshot/screenshot.jpg"} {
			if len(files[name]) == 0 {
				t.Errorf("the report lacks %s (it holds %v)", name, rep.Files)
			}
		}
		if img := files["snapshot/screenshot.jpg"]; len(img) < 3 || img[0] != 0xFF || img[1] != 0xD8 {
			t.Errorf("the screenshot is not a JPEG (the snapshot: %s)", files["snapshot/page.json"])
		}
		md := string(files["REPORT.md"])
		for _, want := range []string{"## What was asked", "## Which step failed", "## What Ferry saw", "## What Ferry expected",
			"ChatGPT", "`generation_error`", "| composer |", "Chrome/", "Ferry: ", "OS: "} {
			if !strings.Contains(md, want) {
				t.Errorf("REPORT.md does not say %q:\n%s", want, md)
			}
		}
		page := string(files["snapshot/page.html"])
		for _, want := range []string{`id="planted"`, `class="account-menu"`, `aria-label="Account"`, `class="dl"`, "report.zip", "https://files.example.com/dl/report.zip"} {
			if !strings.Contains(page, want) {
				t.Errorf("the page lost %q, which is no secret", want)
			}
		}
		if !strings.Contains(string(files["snapshot/console.txt"]), "fetch failed with") {
			t.Errorf("the console error is missing: %s", files["snapshot/console.txt"])
		}
		var env struct{ Chrome string }
		if err := json.Unmarshal(files["environment.json"], &env); err != nil || !strings.HasPrefix(env.Chrome, "Chrome/") && !strings.Contains(env.Chrome, "Chrome") {
			t.Errorf("environment %s (%v) does not name Chromium", files["environment.json"], err)
		}
		secrets := []string{plantedBearer, plantedCookie, plantedEmail, plantedSig, plantedCSRF, plantedPrompt, "Project Nightjar", "4417-ALPHA", "quiet launch", "Plan the"}
		for name, body := range files {
			if name == "snapshot/screenshot.jpg" {
				continue
			}
			for _, sec := range secrets {
				if bytes.Contains(body, []byte(sec)) {
					t.Errorf("%s holds the secret %q", name, sec)
				}
			}
		}
		// The zip as bytes (names, comments, compressed or not) holds none
		// either: every text part was stored redacted.
		for _, sec := range secrets {
			if bytes.Contains(rep.Zip, []byte(sec)) {
				t.Errorf("the zip's bytes hold %q", sec)
			}
		}
	})

	t.Run("with the setting off the snapshot has no screenshot", func(t *testing.T) {
		st := c.Settings()
		st.Run.NoFailureScreenshot = true
		if err := c.saveSettings(st); err != nil {
			t.Fatal(err)
		}
		defer func() {
			st.Run.NoFailureScreenshot = false
			_ = c.saveSettings(st)
		}()
		s := fail(t)
		rep, err := svc.ReportSession(ctx, owner, service.ReportRequest{ID: s.ID})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := readZip(t, rep.Zip)["snapshot/screenshot.jpg"]; ok {
			t.Fatalf("the report holds a screenshot although the setting is off")
		}
	})

	t.Run("a run that did not fail has nothing to report", func(t *testing.T) {
		s, err := runs.New(c.runsDeps()).Ask(ctx, runs.AskRequest{Site: "chatgpt", TargetID: openTab(t).ID(), Prompt: "A fine question", Browser: h.Browser, Origin: job.OriginCLI, Timeout: 45 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.ReportSession(ctx, owner, service.ReportRequest{ID: s.ID})
		if errs.CodeOf(err) != errs.BadInput {
			t.Fatalf("report of a done run: %v, want bad_input", err)
		}
	})

	t.Run("the zip is written whole or not at all, and never over a file", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "r.zip")
		if err := service.WriteFileAtomic(path, []byte("first"), false); err != nil {
			t.Fatal(err)
		}
		if err := service.WriteFileAtomic(path, []byte("second"), false); errs.CodeOf(err) != errs.BadInput {
			t.Fatalf("a second write without overwrite: %v, want bad_input", err)
		}
		if b, _ := os.ReadFile(path); string(b) != "first" {
			t.Fatalf("the file holds %q after a refused write", b)
		}
		if err := service.WriteFileAtomic(path, []byte("second"), true); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != "second" {
			t.Fatalf("the file holds %q after an overwrite", b)
		}
		left, _ := os.ReadDir(dir)
		if len(left) != 1 {
			t.Fatalf("temporary files were left: %v", left)
		}
	})
}
