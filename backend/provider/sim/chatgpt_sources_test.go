package sim_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simtest"
)

// The simulated account's first project (chatgptsim.Projects).
const (
	harbourGizmo = "g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5"
	harbourShort = harbourGizmo + "-harbour-notes"
)

const (
	addSources    = `[role=tabpanel][aria-label="Sources"] button`
	sourcesDialog = `[role=dialog][aria-label="Add sources"]`
	sourceRow     = `li[data-testid="project-source"]`
)

// openSources opens the Sources tab of the Harbour notes project on page
// scenario scenario ("" for none) and waits for its "Add sources".
func openSources(t *testing.T, scenario string, params map[string]string) (*simtest.Env, *rod.Page) {
	t.Helper()
	env := simtest.Shared(t)
	env.Server.Reset()
	if scenario != "" {
		env = withPageScenario(t, sim.ChatGPT, scenario, params)
	}
	p := env.Page(t, sim.URL(sim.ChatGPT, "/g/"+harbourShort+"/project?tab=sources"), 30*time.Second)
	waitJS(t, p, `() => [...document.querySelectorAll('`+addSources+`')].some((b) => b.textContent === 'Add sources')`)
	return env, p
}

// waitJS waits until js (a function of no arguments) returns true in p.
func waitJS(t *testing.T, p *rod.Page, js string) {
	t.Helper()
	if err := p.Timeout(15 * time.Second).Wait(rod.Eval(js)); err != nil {
		t.Fatalf("wait for %s: %v", js, err)
	}
}

// putFiles opens the dialog with a trusted click and gives its file input
// files named names with bodies, as the file picker would.
func putFiles(t *testing.T, p *rod.Page, names []string, bodies [][]byte) {
	t.Helper()
	clickTrusted(t, p, addSources)
	if !exists(p, sourcesDialog) {
		t.Fatal("a trusted click on Add sources opened no dialog")
	}
	dir := t.TempDir()
	var paths []string
	for i, n := range names {
		paths = append(paths, filepath.Join(dir, n))
		if err := os.WriteFile(paths[i], bodies[i], 0o600); err != nil {
			t.Fatal(err)
		}
	}
	el, err := p.Element(sourcesDialog + ` input[type=file]`)
	if err != nil {
		t.Fatal(err)
	}
	if err := el.SetFiles(paths); err != nil {
		t.Fatal(err)
	}
}

// confirm waits for the dialog's button words to be enabled and clicks it.
func confirm(t *testing.T, p *rod.Page, words string) {
	t.Helper()
	waitJS(t, p, `() => [...document.querySelectorAll('`+sourcesDialog+` button')].some((b) => b.textContent === '`+words+`' && !b.disabled)`)
	btn, err := p.ElementR(sourcesDialog+` button`, "^"+words+"$")
	if err != nil {
		t.Fatal(err)
	}
	if err := btn.Click(proto.InputMouseButtonLeft, 1); err != nil {
		t.Fatal(err)
	}
}

func TestChatGPTProjectSourcesTab(t *testing.T) {
	notes, plan := []byte("the harbour opens at six\n"), bytes.Repeat([]byte("plan "), 300)

	t.Run("files put in the Add sources dialog upload, and once confirmed are the project's sources in the list, the endpoint and the ledger", func(t *testing.T) {
		env, p := openSources(t, "", nil)
		if !exists(p, `[role=tabpanel][aria-label="Sources"] p.empty`) || exists(p, sourceRow) {
			t.Fatal("a project without sources lists some, or does not say it has none")
		}
		putFiles(t, p, []string{"notes.md", "plan.txt"}, [][]byte{notes, plan})
		waitJS(t, p, `() => document.querySelectorAll('`+sourcesDialog+` [role=group][aria-label]').length === 2`)
		if n := len(env.Server.Sources(sim.ChatGPT, "")); n != 0 {
			t.Fatalf("%d sources before the dialog was confirmed, want none", n)
		}
		confirm(t, p, "Upload")
		waitJS(t, p, `() => document.querySelectorAll('`+sourceRow+`').length === 2 && !document.querySelector('`+sourcesDialog+`')`)
		got := env.Server.Sources(sim.ChatGPT, harbourGizmo)
		if len(got) != 2 || got[0].Name != "notes.md" || !bytes.Equal(got[0].Body, notes) || got[1].Name != "plan.txt" || !bytes.Equal(got[1].Body, plan) {
			t.Fatalf("the ledger's sources %+v, want notes.md and plan.txt with their bytes", got)
		}
		req, _ := http.NewRequest("GET", sim.URL(sim.ChatGPT, "/backend-api/gizmos/"+harbourGizmo+"/files"), nil)
		req.Header.Set("authorization", "Bearer "+env.Server.AccessToken())
		req.AddCookie(env.Server.SessionCookie(sim.ChatGPT))
		resp, err := env.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Items []struct{ Name string } `json:"items"`
		}
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		if err != nil || len(list.Items) != 2 || list.Items[1].Name != "plan.txt" {
			t.Fatalf("the sources endpoint lists %+v (%v), want the two files", list.Items, err)
		}
	})

	t.Run("a file over the site's limit is refused with its words and the others are still added", func(t *testing.T) {
		env, p := openSources(t, sim.ScenarioUploadLimit, map[string]string{"max": "100"})
		putFiles(t, p, []string{"notes.md", "plan.txt"}, [][]byte{notes, plan})
		waitJS(t, p, `() => [...document.querySelectorAll('[role=alert]')].some((a) => a.textContent === 'Unable to upload plan.txt: file is too large')`)
		confirm(t, p, "Upload")
		waitJS(t, p, `() => document.querySelectorAll('`+sourceRow+`').length === 1`)
		if got := env.Server.Sources(sim.ChatGPT, harbourGizmo); len(got) != 1 || got[0].Name != "notes.md" {
			t.Fatalf("sources %+v, want notes.md alone", got)
		}
	})

	t.Run("a type the project refuses shows the site's words and never uploads", func(t *testing.T) {
		env, p := openSources(t, "sources_type_refused", map[string]string{"ext": ".bin"})
		putFiles(t, p, []string{"blob.bin"}, [][]byte{notes})
		waitJS(t, p, `() => [...document.querySelectorAll('[role=alert]')].some((a) => a.textContent === 'blob.bin: this file type is not supported')`)
		if exists(p, sourcesDialog+` [role=group]`) || len(env.Server.Uploads(sim.ChatGPT)) != 0 {
			t.Fatal("a refused type shows a tile or reached the upload path")
		}
	})

	t.Run("the confirm button's words can be Continue", func(t *testing.T) {
		env, p := openSources(t, "sources_wording", map[string]string{"confirm": "Continue"})
		putFiles(t, p, []string{"notes.md"}, [][]byte{notes})
		confirm(t, p, "Continue")
		waitJS(t, p, `() => document.querySelectorAll('`+sourceRow+`').length === 1`)
		if got := env.Server.Sources(sim.ChatGPT, harbourGizmo); len(got) != 1 {
			t.Fatalf("sources %+v, want notes.md", got)
		}
	})

	t.Run("with sources_no_dialog Add sources opens nothing", func(t *testing.T) {
		_, p := openSources(t, "sources_no_dialog", nil)
		clickTrusted(t, p, addSources)
		if exists(p, sourcesDialog) {
			t.Fatal("a dialog opened")
		}
	})

	t.Run("an upload that does not complete keeps its spinner and the dialog unconfirmable", func(t *testing.T) {
		env, p := openSources(t, sim.ScenarioUploadSlow, map[string]string{"processing": "10m"})
		putFiles(t, p, []string{"notes.md"}, [][]byte{notes})
		waitJS(t, p, `() => !!document.querySelector('`+sourcesDialog+` [role=group][aria-label="notes.md"] .animate-spin') &&
			[...document.querySelectorAll('`+sourcesDialog+` button')].some((b) => b.textContent === 'Upload' && b.disabled)`)
		if n := len(env.Server.Sources(sim.ChatGPT, "")); n != 0 {
			t.Fatalf("%d sources, want none", n)
		}
	})
}
