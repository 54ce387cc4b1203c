package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestAskAttachesFiles: `ferry ask --file` on each site that takes files
// sends the prompt only once every file shows in the composer by name and
// ready; a refused file or one that never shows ends the run before the
// send (nothing reaches the site), two files of the same base name both go
// under visible names, and a slow upload holds the send until it is done.
func TestAskAttachesFiles(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	url := h.Browser.Endpoint()
	dir := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notes := write("notes.txt", "remember the milk\n")
	log := write("build.log", strings.Repeat("ok line\n", 300))
	diff := write("change.diff", "--- a\n+++ b\n")
	utilA := write("a/util.go", "package a\n")
	utilB := write("b/util.go", "package b\n")

	// The sites run side by side on the one simulator and browser: each has
	// its own scenario, submissions, uploads and library there, its own
	// data directory and its own new chat.
	for _, siteID := range []string{sim.ChatGPT, sim.Claude, sim.Gemini} {
		t.Run(siteID, func(t *testing.T) {
			t.Parallel()
			dataDir := t.TempDir()
			ask := func(t *testing.T, files []string, prompt string) result {
				t.Helper()
				args := []string{"ask", "--json", "--browser-url", url, "--data-dir", dataDir, "--timeout", "50s", "--site", siteID, "--new-chat"}
				for _, f := range files {
					args = append(args, "--file", f)
				}
				return ferry(t, nil, append(args, prompt)...)
			}
			last := func() sim.Submission {
				subs := h.Server.Submissions(siteID)
				if len(subs) == 0 {
					t.Fatal("nothing was submitted")
				}
				return subs[len(subs)-1]
			}
			sent := func(t *testing.T, r result, prompt string, want ...string) {
				t.Helper()
				if r.code != 0 {
					t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
				}
				var out askJSON
				if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
					t.Fatalf("stdout: %v\n%s", err, r.stdout)
				}
				sub := last()
				if !reflect.DeepEqual(sub.Attachments, want) || !strings.HasPrefix(sub.Prompt, prompt) {
					t.Fatalf("the site got %q with %v, want %q with %v", sub.Prompt, sub.Attachments, prompt, want)
				}
			}
			refused := func(t *testing.T, r result, code string, before int) {
				t.Helper()
				if r.code != 3 || !strings.Contains(r.stderr+r.stdout, code) {
					t.Fatalf("exit %d, want 3 with %s\nstdout %s\nstderr %s", r.code, code, r.stdout, r.stderr)
				}
				if n := h.Server.SubmissionCount(siteID); n != before {
					t.Fatalf("%d submissions, want %d: something was sent", n, before)
				}
			}
			t.Run("one file is sent with the prompt and the run shows it", func(t *testing.T) {
				r := ask(t, []string{notes}, "Summarise the notes")
				sent(t, r, "Summarise the notes", "notes.txt")
				var out askJSON
				_ = json.Unmarshal([]byte(r.stdout), &out)
				show := ferry(t, nil, "sessions", "show", "--data-dir", dataDir, out.Session)
				if show.code != 0 || !strings.Contains(show.stdout, "## Attachments (1)") ||
					!strings.Contains(show.stdout, "notes.txt  18 B  sha256 ") {
					t.Fatalf("sessions show: exit %d\n%s\n%s", show.code, show.stdout, show.stderr)
				}
			})
			// ChatGPT renames a name its account's library already holds
			// ("notes.txt" -> "notes(1).txt"); the other sites keep it.
			held := func(name string, before int) string {
				if siteID != sim.ChatGPT || before == 0 {
					return name
				}
				ext := filepath.Ext(name)
				return fmt.Sprintf("%s(%d)%s", strings.TrimSuffix(name, ext), before, ext)
			}
			t.Run("three files are all sent", func(t *testing.T) {
				sent(t, ask(t, []string{notes, log, diff}, "Read these three"), "Read these three", "build.log", "change.diff", held("notes.txt", 1))
			})
			t.Run("a name the site's library already holds is sent under the site's name and the run records it", func(t *testing.T) {
				r := ask(t, []string{notes}, "Summarise the notes again")
				sent(t, r, "Summarise the notes again", held("notes.txt", 2))
				var out askJSON
				_ = json.Unmarshal([]byte(r.stdout), &out)
				show := ferry(t, nil, "sessions", "show", "--data-dir", dataDir, out.Session)
				want := "notes.txt  18 B  sha256 "
				if siteID == sim.ChatGPT {
					want = "(the site named it notes(2).txt)"
				}
				if show.code != 0 || !strings.Contains(show.stdout, want) {
					t.Fatalf("sessions show: exit %d, want %q\n%s\n%s", show.code, want, show.stdout, show.stderr)
				}
			})
			t.Run("same base names are both sent under visible names and the prompt says so", func(t *testing.T) {
				sent(t, ask(t, []string{utilA, utilB}, "Compare the utils"), "Compare the utils", "a__util.go", "b__util.go")
				if p := last().Prompt; !strings.Contains(p, "a__util.go is a/util.go") || !strings.Contains(p, "b__util.go is b/util.go") {
					t.Fatalf("the prompt does not name the renames: %q", p)
				}
			})
			t.Run("a file the site refuses ends the run before the send", func(t *testing.T) {
				h.Server.SetScenario(siteID, sim.Scenario{Name: sim.ScenarioUploadLimit, Params: map[string]string{"max": "1KiB"}})
				defer h.Server.SetScenario(siteID, sim.Scenario{Name: sim.ScenarioNormal})
				before := h.Server.SubmissionCount(siteID)
				r := ask(t, []string{notes, log}, "This must not be sent")
				refused(t, r, "attachment_rejected", before)
				if !strings.Contains(r.stderr+r.stdout, "build.log") {
					t.Fatalf("the refusal does not name the file: %s %s", r.stdout, r.stderr)
				}
			})
			t.Run("a file whose tile never shows ends the run before the send", func(t *testing.T) {
				h.Server.SetScenario(siteID, sim.Scenario{Name: sim.ScenarioUploadNoTile})
				defer h.Server.SetScenario(siteID, sim.Scenario{Name: sim.ScenarioNormal})
				before := h.Server.SubmissionCount(siteID)
				refused(t, ask(t, []string{notes}, "This must not be sent either"), "attachment_unconfirmed", before)
			})
			t.Run("slow processing holds the send until the file is ready", func(t *testing.T) {
				h.Server.SetScenario(siteID, sim.Scenario{Name: sim.ScenarioUploadSlow, Params: map[string]string{"processing": "3s"}})
				defer h.Server.SetScenario(siteID, sim.Scenario{Name: sim.ScenarioNormal})
				start := time.Now()
				sent(t, ask(t, []string{diff}, "Review the diff"), "Review the diff", held("change.diff", 1))
				if took := time.Since(start); took < 3*time.Second {
					t.Fatalf("sent after %s, before processing (3s) could end", took)
				}
				ups := h.Server.Uploads(siteID)
				if u := ups[len(ups)-1]; !u.Completed || u.Name != held("change.diff", 1) {
					t.Fatalf("the last upload %+v", u)
				}
			})
		})
	}
}

// TestFilesReportSendsNothing: --files-report expands --file (a directory,
// an exclusion) and prints each file as it would be sent, renames
// included, without a browser.
func TestFilesReportSendsNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for rel, body := range map[string]string{"src/a/util.go": "package a\n", "src/b/util.go": "package b\n", "src/run.log": "x"} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := ferry(t, nil, "ask", "--site", "chatgpt", "--data-dir", t.TempDir(), "--file", filepath.Join(dir, "src"), "--file", "!*.log", "--files-report", "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "a__util.go") || !strings.Contains(r.stdout, "b__util.go") ||
		strings.Contains(r.stdout, "run.log") || !strings.Contains(r.stdout, "2 files, 20 B, would be attached; nothing was sent") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if r := ferry(t, nil, "ask", "--site", "chatgpt", "--files-report", "hi"); r.code != 2 {
		t.Fatalf("--files-report without --file: exit %d, want 2", r.code)
	}
}
