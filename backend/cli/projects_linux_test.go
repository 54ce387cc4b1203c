package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/cli/internal/confirm/ptytest"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestProjectsAddSource runs `ferry projects add-source` against the
// simulator's project pages: nothing reaches the site before the person at
// the terminal said yes (or --yes was given), the project is named as ask
// --project names it, and each file added is proven by the project's list
// and lands in the site's ledger byte for byte.
func TestProjectsAddSource(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	url, dataDir, dir := h.Browser.Endpoint(), t.TempDir(), t.TempDir()
	write := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notesBody, planBody := []byte("the harbour opens at six\n"), bytes.Repeat([]byte("plan line\n"), 150)
	notes, plan := write("notes.md", notesBody), write("plan.txt", planBody)
	const harbour = "g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5"
	// add runs add-source with stdin (nil: none) on page scenario
	// scenario ("" for none), the simulator's ledgers emptied first.
	add := func(t *testing.T, stdin *os.File, scenario string, params map[string]string, args ...string) result {
		t.Helper()
		h.Server.Reset()
		if scenario != "" {
			h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: scenario, Params: params})
		}
		full := append([]string{"projects", "add-source", "--browser-url", url, "--data-dir", dataDir}, args...)
		if stdin == nil {
			return ferryIn(t, nil, nil, full...)
		}
		return ferryIn(t, stdin, nil, full...)
	}
	nothingUploaded := func(t *testing.T) {
		t.Helper()
		if u, s := h.Server.Uploads(sim.ChatGPT), h.Server.Sources(sim.ChatGPT, ""); len(u) != 0 || len(s) != 0 {
			t.Fatalf("the site got %d uploads and %d sources, want none", len(u), len(s))
		}
	}
	// terminal is a pseudo-terminal on which answer is already typed.
	terminal := func(t *testing.T, answer string) *os.File {
		control, tty := ptytest.Open(t)
		if _, err := control.WriteString(answer); err != nil {
			t.Fatal(err)
		}
		return tty
	}
	type addedJSON struct {
		Project struct{ Name, Address string } `json:"project"`
		Files   []struct {
			Name, Status string
			Error        *errs.Envelope `json:"error"`
		} `json:"files"`
	}

	t.Run("an unknown or ambiguous project is bad_input naming the projects, and nothing is uploaded", func(t *testing.T) {
		for _, bad := range []struct{ name, want string }{{"Lighthouse", "Harbour notes, Ferry research"}, {"SHARED", "address"}} {
			r := add(t, nil, "", nil, "--yes", "--project", bad.name, notes)
			if r.code != 2 || !strings.Contains(r.stderr, "bad_input") || !strings.Contains(r.stderr, bad.want) {
				t.Fatalf("--project %q: exit %d\nstderr %s; want 2 naming %q", bad.name, r.code, r.stderr, bad.want)
			}
			nothingUploaded(t)
		}
	})

	t.Run("without a terminal and without --yes it refuses, naming --yes, and uploads nothing", func(t *testing.T) {
		r := add(t, nil, "", nil, "--project", "Harbour notes", notes)
		if r.code != 2 || !strings.Contains(r.stderr, "authorization_required") || !strings.Contains(r.stderr, "--yes") {
			t.Fatalf("exit %d\nstderr %s; want 2, authorization_required naming --yes", r.code, r.stderr)
		}
		nothingUploaded(t)
	})

	t.Run("a file that is not there is refused before anything is asked or uploaded", func(t *testing.T) {
		r := add(t, nil, "", nil, "--yes", "--project", "Harbour notes", notes, filepath.Join(dir, "missing.md"))
		if r.code != 2 || !strings.Contains(r.stderr, "missing.md") {
			t.Fatalf("exit %d\nstderr %s; want 2 naming missing.md", r.code, r.stderr)
		}
		nothingUploaded(t)
	})

	t.Run("the question on the terminal answered no uploads nothing", func(t *testing.T) {
		r := add(t, terminal(t, "n\n"), "", nil, "--project", "harbour NOTES", notes, plan)
		question := `Add 2 files (1.5 KiB) to the project "Harbour notes"? [y/N]`
		if r.code != 8 || !strings.Contains(r.stderr, question) || !strings.Contains(r.stderr, "nothing was uploaded") {
			t.Fatalf("exit %d\nstderr %s; want 8 after %q", r.code, r.stderr, question)
		}
		nothingUploaded(t)
	})

	t.Run("the question answered yes adds the file", func(t *testing.T) {
		r := add(t, terminal(t, "y\n"), "", nil, "--project", "https://chatgpt.com/g/"+harbour+"/project", notes)
		if r.code != 0 || !strings.Contains(r.stderr, `Add 1 file (25 B) to the project "Harbour notes"? [y/N]`) || !strings.Contains(r.stdout, "added") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want the question, then notes.md added", r.code, r.stdout, r.stderr)
		}
		if got := h.Server.Sources(sim.ChatGPT, harbour); len(got) != 1 || !bytes.Equal(got[0].Body, notesBody) {
			t.Fatalf("the project's sources %+v, want notes.md", got)
		}
	})

	t.Run("--yes adds two files, proven by the project's list and byte-exact in the site's ledger", func(t *testing.T) {
		r := add(t, nil, "", nil, "--json", "--yes", "--project", "Harbour notes", notes, plan)
		var out addedJSON
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Project.Name != "Harbour notes" || len(out.Files) != 2 ||
			out.Files[0].Status != "added" || out.Files[1].Status != "added" {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want both files added to Harbour notes", r.code, r.stdout, r.stderr)
		}
		got := h.Server.Sources(sim.ChatGPT, harbour)
		if len(got) != 2 || got[0].Name != "notes.md" || !bytes.Equal(got[0].Body, notesBody) || got[1].Name != "plan.txt" || !bytes.Equal(got[1].Body, planBody) {
			t.Fatalf("the project's sources %+v, want notes.md and plan.txt with their bytes", got)
		}
	})

	t.Run("a file the site refuses is reported in its words and the other is still added", func(t *testing.T) {
		r := add(t, nil, sim.ScenarioUploadLimit, map[string]string{"max": "100"}, "--json", "--yes", "--project", "Harbour notes", notes, plan)
		var out addedJSON
		words := "Unable to upload plan.txt: file is too large"
		if r.code != 3 || json.Unmarshal([]byte(r.stdout), &out) != nil || len(out.Files) != 2 || out.Files[0].Status != "added" ||
			out.Files[1].Status != "refused" || out.Files[1].Error == nil || out.Files[1].Error.Code != errs.AttachmentRejected ||
			out.Files[1].Error.Evidence["site_words"] != words {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want 3, notes.md added and plan.txt refused in the site's words", r.code, r.stdout, r.stderr)
		}
		if got := h.Server.Sources(sim.ChatGPT, harbour); len(got) != 1 || got[0].Name != "notes.md" {
			t.Fatalf("the project's sources %+v, want notes.md alone", got)
		}
	})

	t.Run("an upload that does not complete in time is unconfirmed and not added", func(t *testing.T) {
		r := add(t, nil, sim.ScenarioUploadSlow, map[string]string{"processing": "10m"}, "--yes", "--timeout", "3s", "--project", "Harbour notes", notes)
		if r.code != 3 || !strings.Contains(r.stdout, "unconfirmed") || !strings.Contains(r.stderr, "attachment_unconfirmed") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want 3, notes.md unconfirmed", r.code, r.stdout, r.stderr)
		}
		if got := h.Server.Sources(sim.ChatGPT, ""); len(got) != 0 {
			t.Fatalf("sources %+v, want none", got)
		}
	})

	t.Run("through a running ferry serve the files go through its browser and are added alike", func(t *testing.T) {
		h.Server.Reset()
		served := t.TempDir()
		startServe(t, served, "--browser-url", url)
		r := ferryIn(t, terminal(t, "yes\n"), nil, "projects", "add-source", "--data-dir", served, "--project", "Ferry research", plan)
		const research = "g-p-7b11aa09e2c84f6d8e3a5c7b9d1f0e2a"
		if r.code != 0 || !strings.Contains(r.stderr, `to the project "Ferry research"? [y/N]`) {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want plan.txt added to Ferry research", r.code, r.stdout, r.stderr)
		}
		if got := h.Server.Sources(sim.ChatGPT, research); len(got) != 1 || !bytes.Equal(got[0].Body, planBody) {
			t.Fatalf("the project's sources %+v, want plan.txt", got)
		}
	})

	t.Run("a dialog that never opens uploads nothing", func(t *testing.T) {
		r := add(t, nil, "sources_no_dialog", nil, "--yes", "--project", "Harbour notes", notes)
		if r.code != 3 || !strings.Contains(r.stderr, "dialog did not open") {
			t.Fatalf("exit %d\nstderr %s; want 3, the dialog that did not open", r.code, r.stderr)
		}
		nothingUploaded(t)
	})
}
