package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// leakPatterns match what must never be written or printed: a JWT (the
// bearer token; every JWT starts with a base64url JSON header "eyJ…"
// followed by a dot), an estuary signature parameter, or an estuary URL.
var leakPatterns = []*regexp.Regexp{
	regexp.MustCompile(`eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`),
	regexp.MustCompile(`sig=[0-9a-f]{16,}`),
	regexp.MustCompile(`estuary/content\?`),
}

func assertNoLeak(t *testing.T, what string, b []byte) {
	t.Helper()
	for _, re := range leakPatterns {
		if loc := re.FindIndex(b); loc != nil {
			t.Fatalf("%s leaks a secret matching %s at byte %d", what, re, loc[0])
		}
	}
}

// allFiles returns every regular file under dir.
func allFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestCode runs the built ferry binary's `code` command against the
// simulator in headless Chromium, attached with --browser-url.
func TestCode(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	outRoot := t.TempDir() // every run's --out lives here until the leak check
	newOut := func(t *testing.T) string {
		t.Helper()
		d, err := os.MkdirTemp(outRoot, "out-")
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var outputs [][]byte // every stdout and stderr, for the leak check
	code := func(t *testing.T, out string, args ...string) (result, Receipt) {
		t.Helper()
		r := ferry(t, nil, append([]string{"code", "--site", "chatgpt", "--browser-url", url, "--data-dir", dataDir, "--out", out, "--timeout", "50s", "--json"}, args...)...)
		outputs = append(outputs, []byte(r.stdout), []byte(r.stderr))
		var rc Receipt
		if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil {
			t.Fatalf("stdout is not a receipt (exit %d): %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
		}
		if rc.Path == "" || filepath.Dir(rc.Path) != out {
			t.Fatalf("receipt written to %q, want it in %s", rc.Path, out)
		}
		onDisk, err := os.ReadFile(rc.Path)
		if err != nil {
			t.Fatalf("read receipt: %v", err)
		}
		var disk Receipt
		if err := json.Unmarshal(onDisk, &disk); err != nil || disk.OK != rc.OK || disk.Layers != rc.Layers {
			t.Fatalf("the receipt on disk differs from the printed one: %v", err)
		}
		return r, rc
	}
	fresh := func(t *testing.T) {
		t.Helper()
		h.Server.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			if p, err := h.Browser.Page(ctx, tg.ID); err == nil && strings.Contains(tg.URL, "chatgpt.com") {
				if err := p.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	var firstRun Receipt // the first run's, for the history checks
	once := func(t *testing.T) {
		t.Helper()
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("%d submissions, want exactly 1", n)
		}
	}

	t.Run("one zip is brought home verified with its sidecar and a passing receipt", func(t *testing.T) {
		out := newOut(t)
		r, rc := code(t, out, "Build a greeting CLI", sim.Directive(sim.ScenarioCodeZip))
		if r.code != 0 || !rc.OK {
			t.Fatalf("exit %d ok %v error %+v\nstderr %s", r.code, rc.OK, rc.Error, r.stderr)
		}
		once(t)
		for name, l := range map[string]Layer{"routing": rc.Layers.Routing, "transport": rc.Layers.Transport, "content": rc.Layers.Content, "download": rc.Layers.Download} {
			if l.Status != "passed" {
				t.Fatalf("layer %s = %+v, want passed", name, l)
			}
		}
		if len(rc.Zips) != 1 || !rc.Zips[0].Verified || rc.Zips[0].SandboxPath != "/mnt/data/project.zip" {
			t.Fatalf("zips %+v", rc.Zips)
		}
		z := rc.Zips[0]
		b, err := os.ReadFile(z.SavedPath)
		if err != nil || filepath.Dir(z.SavedPath) != out || filepath.Base(z.SavedPath) != "project.zip" {
			t.Fatalf("saved %s: %v", z.SavedPath, err)
		}
		want, _ := sim.ZipBytes(sim.ScenarioCodeZip, 0, 1)
		s := sha256.Sum256(b)
		if !bytes.Equal(b, want) || hex.EncodeToString(s[:]) != z.SHA256 {
			t.Fatalf("saved bytes differ from the sandbox's zip")
		}
		if _, err := os.Stat(z.SavedPath + ".provenance.json"); err != nil || z.Sidecar == "" {
			t.Fatalf("no sidecar: %v", err)
		}
		if rc.Steps[0].Outcome == nil || len(rc.Steps[0].Outcome.Zips) != 1 {
			t.Fatalf("content outcome %+v", rc.Steps[0].Outcome)
		}
		// The new tab opened in the background, where trusted clicks take
		// ≈5 s; close the others so later runs measure Ferry.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		tab := rc.Steps[0].Result.Routing.ControlledTabID
		targets, _ := h.Browser.Targets(ctx, nil)
		for _, tg := range targets {
			if tg.ID != tab {
				if p, err := h.Browser.Page(ctx, tg.ID); err == nil {
					_ = p.Close(ctx)
				}
			}
		}
		t.Logf("ferry code, one small zip, new tab: %s", r.took)
		firstRun = rc
	})

	t.Run("the run is in the history with its template, contract, artifacts, journal and receipt", func(t *testing.T) {
		rc := firstRun
		if len(rc.Sessions) != 1 || len(rc.Zips) != 1 {
			t.Fatalf("receipt sessions %v zips %d, want one session", rc.Sessions, len(rc.Zips))
		}
		r := ferry(t, nil, "sessions", "show", rc.Sessions[0], "--json", "--data-dir", dataDir)
		outputs = append(outputs, []byte(r.stdout))
		var shown struct {
			Session job.Session `json:"session"`
			Journal []job.Entry `json:"journal"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
			t.Fatalf("sessions show: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		s := shown.Session
		if s.State != job.StateDone || !s.CodeMode || s.Contract != "code" || s.Origin != job.OriginCLI || !strings.Contains(s.Prompt, "Build a greeting CLI") {
			t.Fatalf("session %s state %s codeMode %v contract %q origin %s", s.ID, s.State, s.CodeMode, s.Contract, s.Origin)
		}
		if len(s.Artifacts) != 1 || s.Artifacts[0].Name != "project.zip" || s.Artifacts[0].Verdict != "verified" ||
			s.Artifacts[0].SHA256 != rc.Zips[0].SHA256 || s.Artifacts[0].Path != rc.Zips[0].SavedPath {
			t.Fatalf("artifacts %+v, want project.zip verified with the receipt's sha256", s.Artifacts)
		}
		layers := map[string]map[string]string{}
		for _, x := range s.Receipts {
			layers[x.Layer] = x.Data
		}
		for _, l := range []string{"routing", "transport", "content", "contract", "download", "receipt"} {
			if layers[l] == nil {
				t.Fatalf("no %s receipt in %+v", l, s.Receipts)
			}
		}
		if layers["receipt"]["path"] != rc.Path || layers["receipt"]["ok"] != "true" || layers["receipt"]["download"] != "passed" || layers["download"]["verified"] != "1" {
			t.Fatalf("receipt record %v download %v", layers["receipt"], layers["download"])
		}
		var states []job.State
		for _, e := range shown.Journal {
			states = append(states, e.State)
		}
		want := []job.State{job.StateExtracted, job.StateArtifactsRetrieved, job.StateArtifactsVerified, job.StateDone}
		if len(states) < len(want) || fmt.Sprint(states[len(states)-4:]) != fmt.Sprint(want) {
			t.Fatalf("journal %v, want it to end %v", states, want)
		}
		// The search covers artifact file names: the hit names the file.
		r = ferry(t, nil, "sessions", "list", "--json", "--query", "project.zip", "--data-dir", dataDir)
		var listed struct {
			Sessions []struct {
				ID      string `json:"id"`
				Matches []struct {
					Field string `json:"field"`
				} `json:"matches"`
			} `json:"sessions"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &listed) != nil {
			t.Fatalf("sessions list --query project.zip: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		found := false
		for _, row := range listed.Sessions {
			for _, m := range row.Matches {
				found = found || (row.ID == s.ID && m.Field == "file")
			}
		}
		if !found {
			t.Fatalf("sessions list --query project.zip does not find %s by its file: %s", s.ID, r.stdout)
		}
	})

	t.Run("several zips are each saved, and a later turn brings only its own zip", func(t *testing.T) {
		fresh(t)
		out := newOut(t)
		r, rc := code(t, out, "--zip", "multi", "Build a three-part app", sim.Directive(sim.ScenarioMultiZip, "zips", "3"))
		if r.code != 0 || len(rc.Zips) != 3 || rc.Layers.Download.Status != "passed" {
			t.Fatalf("exit %d zips %+v layers %+v\nstderr %s", r.code, rc.Zips, rc.Layers, r.stderr)
		}
		once(t)
		for i, z := range rc.Zips {
			if !z.Verified || filepath.Base(z.SavedPath) != filepath.Base(z.SandboxPath) {
				t.Fatalf("zip %d %+v", i, z)
			}
		}
		// Same tab, same conversation: the older part zips are still in
		// the conversation but are not this turn's.
		r, rc = code(t, out, "Now only the core", sim.Directive(sim.ScenarioCodeZip))
		if r.code != 0 || len(rc.Zips) != 1 || rc.Zips[0].SandboxPath != "/mnt/data/project.zip" {
			t.Fatalf("exit %d zips %+v\nstderr %s", r.code, rc.Zips, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 2 {
			t.Fatalf("%d submissions after two runs, want 2", n)
		}
		t.Logf("ferry code, one small zip, visible tab: %s", r.took)
	})

	t.Run("an answer without a zip is a missing deliverable, or saved inline when allowed", func(t *testing.T) {
		fresh(t)
		out := newOut(t)
		r, rc := code(t, out, "Write the script", sim.Directive(sim.ScenarioInlineCode))
		if r.code != 5 || rc.OK || rc.Error == nil || rc.Error.Code != errs.CodeArtifactMissing || !strings.Contains(rc.Error.RetryHint, "--allow-inline") {
			t.Fatalf("exit %d error %+v, want 5 code_artifact_missing hinting --allow-inline", r.code, rc.Error)
		}
		if rc.Layers.Content.Status != "failed" || rc.Layers.Download.Status != "failed" || rc.Layers.Transport.Status != "passed" {
			t.Fatalf("layers %+v", rc.Layers)
		}
		once(t)
		fresh(t)
		r, rc = code(t, out, "--allow-inline", "Write the script", sim.Directive(sim.ScenarioInlineCode))
		if r.code != 0 || len(rc.Zips) != 1 || !rc.Zips[0].Inline || !rc.Zips[0].Verified || rc.Zips[0].Files != 2 {
			t.Fatalf("exit %d zips %+v error %+v", r.code, rc.Zips, rc.Error)
		}
		if _, err := os.Stat(rc.Zips[0].SavedPath); err != nil {
			t.Fatal(err)
		}
		once(t)
	})

	failures := []struct {
		name, scenario string
		code           errs.Code
		quarantined    bool
	}{
		{"an expired sandbox exits 7 and saves nothing", sim.ScenarioSandboxExpired, errs.ArtifactExpired, false},
		{"an estuary 403 exits 7 and saves nothing", sim.ScenarioEstuary403, errs.ArtifactForbidden, false},
		{"a bad CRC exits 7 and leaves no zip", sim.ScenarioZipBadCRC, errs.ArtifactCorrupt, false},
		{"a truncated zip exits 7 and leaves no zip", sim.ScenarioZipTruncated, errs.ArtifactCorrupt, false},
		{"a zip-slip zip exits 7 and is quarantined, never saved as good", sim.ScenarioZipSlip, errs.ArtifactUnsafe, true},
		{"a zip bomb exits 7 and is quarantined", sim.ScenarioZipBomb, errs.ArtifactUnsafe, true},
		{"a symlink zip exits 7 and is quarantined", sim.ScenarioZipSymlink, errs.ArtifactUnsafe, true},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			fresh(t)
			out := newOut(t)
			r, rc := code(t, out, "Build it", sim.Directive(tc.scenario))
			if r.code != 7 || rc.OK || rc.Error == nil || rc.Error.Code != tc.code {
				t.Fatalf("exit %d error %+v, want 7 %s\nstderr %s", r.code, rc.Error, tc.code, r.stderr)
			}
			once(t)
			if rc.Layers.Download.Status != "failed" || rc.Layers.Transport.Status != "passed" || rc.Layers.Routing.Status != "passed" {
				t.Fatalf("layers %+v", rc.Layers)
			}
			for _, f := range allFiles(t, out) {
				rel, _ := filepath.Rel(out, f)
				switch {
				case f == rc.Path:
				case tc.quarantined && strings.HasPrefix(rel, "quarantine"+string(filepath.Separator)):
				default:
					t.Fatalf("a failed run left %s", rel)
				}
			}
			if tc.quarantined {
				z := rc.Zips[0]
				if !z.Quarantined || z.Verified {
					t.Fatalf("zip %+v, want quarantined and not verified", z)
				}
				if _, err := os.Stat(z.SavedPath); err != nil {
					t.Fatalf("quarantined file: %v", err)
				}
			}
		})
	}

	t.Run("bad input exits 2 before the browser is touched", func(t *testing.T) {
		h.Server.Reset()
		for _, args := range [][]string{
			{"code", "--site", "chatgpt"},
			{"code", "--site", "chatgpt", "--zip", "many", "task"},
			{"code", "--site", "chatgpt", "--contract", "plan", "task"},
			{"code", "--site", "chatgpt", "--contract", "everything", "task"},
			{"code", "--site", "chatgpt", "--repo", ".", "task"},
		} {
			r := ferry(t, nil, append(args, "--data-dir", dataDir, "--browser-url", url)...)
			outputs = append(outputs, []byte(r.stdout), []byte(r.stderr))
			if r.code != 2 || r.stderr == "" {
				t.Fatalf("ferry %v: exit %d stderr %q, want 2 with a message", args, r.code, r.stderr)
			}
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("bad input sent %d prompts", n)
		}
	})

	t.Run("no token or download signature reaches any file or output", func(t *testing.T) {
		if len(outputs) < 10 {
			t.Fatalf("only %d outputs were collected", len(outputs))
		}
		for i, o := range outputs {
			assertNoLeak(t, fmt.Sprintf("output %d", i), o)
		}
		// The patterns do match what they must catch.
		assertMatches := func(s string) {
			for _, re := range leakPatterns {
				if re.MatchString(s) {
					return
				}
			}
			t.Fatalf("no leak pattern matches %q", s)
		}
		assertMatches(h.Server.AccessToken())
		assertMatches("https://chatgpt.com/backend-api/estuary/content?id=file_x&sig=0123456789abcdef0123")
		n := 0
		for _, dir := range []string{dataDir, outRoot} {
			for _, f := range allFiles(t, dir) {
				b, err := os.ReadFile(f)
				if err != nil {
					continue
				}
				n++
				assertNoLeak(t, f, b)
			}
		}
		if n == 0 {
			t.Fatal("no file was checked")
		}
	})
}
