//go:build gui

package guitest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// harbourNotes is the gizmo id of the simulated account's project "Harbour
// notes" (chatgptsim.Projects[0]): a send in the project names it.
const harbourNotes = "g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5"

// TestComposeSendsWhereTheChatGoes chooses, in Compose on ChatGPT, where a
// run's new chat goes, and proves each choice reached the simulator as
// such: a temporary chat, a project listed from the account (after a
// listing the logged-out site refused, shown as an error with a retry),
// archived after, and a custom GPT typed by its address. History then says
// where each chat went, and another site offers none of the choices. The
// chosen project takes files into its sources, after a question.
func TestComposeSendsWhereTheChatGoes(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	// The files the open dialog answers with (the dev binary's picker):
	// the sources a project is given below.
	files := t.TempDir()
	notes, tides := filepath.Join(files, "crossing-notes.md"), filepath.Join(files, "tides.csv")
	notesBody, tidesBody := []byte("# Crossing notes\n\nThe night ferry leaves from pier 4.\n"), []byte("hour,metres\n06,1.2\n18,3.4\n")
	for path, body := range map[string][]byte{notes: notesBody, tides: tidesBody} {
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv, _, _, page := composeOnSimEnv(t, 5*time.Minute, []string{"FERRY_DEV_OPEN_DIALOG_FILES=" + notes + string(filepath.ListSeparator) + tides})
	shots := t.TempDir()
	options := func(sel string) string {
		return page.MustEval(`(sel) => [...document.querySelectorAll(sel + ' option')].map(o => o.textContent.trim()).join(' | ')`, sel).Str()
	}
	// openWhere opens the panel of where the chat goes (it opens over the
	// page, so Compose keeps its height).
	openWhere := func() {
		t.Helper()
		if toggle := page.MustElement(`[data-testid=compose-where-toggle]`); toggle.MustAttribute("aria-expanded") == nil || *toggle.MustAttribute("aria-expanded") != "true" {
			toggle.MustClick()
		}
		page.MustElement(`[data-testid=compose-where-panel]`)
	}
	checked := func(id string, want bool) {
		openWhere()
		t.Helper()
		if page.MustElement(`[data-testid=`+id+`]`).MustProperty("checked").Bool() != want {
			page.MustElement(`[data-testid=` + id + `]`).MustClick()
		}
		page.MustWait(`(id, want) => document.querySelector('[data-testid=' + id + ']').checked === want`, id, want)
	}

	t.Run("ChatGPT offers a temporary chat, the archive and a project, with no project listed before asked", func(t *testing.T) {
		if got := page.MustElement(`[data-testid=compose-where-toggle] .ellipsis`).MustText(); got != "Where" {
			t.Errorf("the toggle reads %q before a choice", got)
		}
		openWhere()
		for _, id := range []string{"compose-temporary", "compose-archive", "compose-project", "compose-projects-load"} {
			if has, _, _ := page.Has(`[data-testid=` + id + `]`); !has {
				t.Errorf("Compose on ChatGPT has no %s", id)
			}
		}
		if got := options(`[data-testid=compose-project]`); got != "None | Another project or GPT…" {
			t.Errorf("before a listing the project picker offers %q", got)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d sends before anything was sent", n)
		}
	})

	t.Run("a listing the site's tab cannot make is a clear error, and Try again lists the projects", func(t *testing.T) {
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
		openWhere()
		page.MustElement(`[data-testid=compose-projects-load]`).MustClick()
		if err := page.Timeout(60 * time.Second).Wait(rod.Eval(`() => !!document.querySelector('[data-testid=compose-projects-error] [data-testid=envelope-message]')`)); err != nil {
			t.Fatalf("no error shown for a logged-out listing: %v", err)
		}
		msg := page.MustElement(`[data-testid=compose-projects-error]`).MustText()
		if !strings.Contains(msg, "ChatGPT’s projects could not be listed") || !strings.Contains(strings.ToLower(msg), "log") {
			t.Errorf("the error reads %q", msg)
		}
		if b := page.MustElement(`[data-testid=compose-projects-load]`).MustText(); b != "Try again" {
			t.Errorf("the listing's button reads %q after a failure", b)
		}
		savePageShot(t, page, shots, "ferry-compose-projects-error.png")
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		openWhere()
		page.MustElement(`[data-testid=compose-projects-load]`).MustClick()
		if err := page.Timeout(60 * time.Second).Wait(rod.Eval(`() => [...document.querySelectorAll('[data-testid=compose-project] option')].some(o => o.textContent === 'Harbour notes')`)); err != nil {
			t.Fatalf("the projects were not listed after Try again: %v (%s)", err, options(`[data-testid=compose-project]`))
		}
		if has, _, _ := page.Has(`[data-testid=compose-projects-error]`); has {
			t.Error("the error stays after a listing that worked")
		}
		if got := options(`[data-testid=compose-project]`); got != "None | Harbour notes | Ferry research | Shared | shared | Another project or GPT…" {
			t.Errorf("the project picker offers %q", got)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("listing the projects sent %d prompts", n)
		}
	})

	const temporary, project, gpt = "Which pier does the night ferry use?", "How long is the harbour crossing?", "Who steers the morning ferry?"
	t.Run("a temporary run reaches the site as a temporary chat", func(t *testing.T) {
		checked("compose-temporary", true)
		if got := page.MustElement(`[data-testid=compose-where-toggle] .ellipsis`).MustText(); got != "Where: temporary chat" {
			t.Errorf("the toggle reads %q with a temporary chat chosen", got)
		}
		if page.MustEval(`() => document.querySelector('[data-testid=compose-archive]').disabled && document.querySelector('[data-testid=compose-project]').disabled`).Bool() != true {
			t.Error("a temporary chat still offers the archive and a project")
		}
		sub := sendAndWait(t, page, srv, temporary, temporary)
		if !sub.Temporary || sub.Gizmo != "" {
			t.Fatalf("the send reached the site as %+v, want a temporary chat in no project", sub)
		}
		if w := page.MustElement(`[data-testid=live-run] [data-testid=run-where]`).MustText(); !strings.Contains(w, "temporary chat") {
			t.Errorf("the run's card says it went to %q", w)
		}
		checked("compose-temporary", false)
	})

	t.Run("a run in a listed project reaches the site in that project, and is archived after", func(t *testing.T) {
		openWhere()
		page.MustElement(`[data-testid=compose-project]`).MustSelect("Harbour notes")
		checked("compose-archive", true)
		sub := sendAndWait(t, page, srv, project, project)
		if sub.Temporary || sub.Gizmo != harbourNotes {
			t.Fatalf("the send reached the site as %+v, want one in project %s", sub, harbourNotes)
		}
		checked("compose-archive", false)
	})

	t.Run("the chosen project takes files into its sources only once the question is answered, and no chat is sent", func(t *testing.T) {
		openWhere()
		page.MustElement(`[data-testid=compose-project]`).MustSelect("Harbour notes")
		sends, uploads := srv.SubmissionCount(sim.ChatGPT), len(srv.Uploads(sim.ChatGPT))
		ask := func() {
			t.Helper()
			openWhere()
			page.MustElement(`[data-testid=compose-add-sources]`).MustClick()
			q, err := page.Timeout(eventWithin).Element(`[data-testid=compose-sources-question]`)
			if err != nil {
				t.Fatalf("no question before adding the files: %v (%s)", err, page.MustElement(`[data-testid=compose-sources]`).MustText())
			}
			want := fmt.Sprintf("Add 2 files (%d B) to the project “Harbour notes”?", len(notesBody)+len(tidesBody))
			if got := q.MustText(); got != want {
				t.Errorf("the question reads %q, want %q", got, want)
			}
			if got := page.MustEval(`() => [...document.querySelectorAll('[data-testid=compose-source-file]')].map(e => e.dataset.name).join(' ')`).Str(); got != "crossing-notes.md tides.csv" {
				t.Errorf("the question lists %q", got)
			}
			if n := len(srv.Uploads(sim.ChatGPT)); n != uploads || len(srv.Sources(sim.ChatGPT, "")) != 0 {
				t.Fatalf("%d uploads and %d sources while the question waits, want none", n-uploads, len(srv.Sources(sim.ChatGPT, "")))
			}
		}
		ask()
		page.MustElement(`[data-testid=compose-sources-cancel]`).MustClick()
		page.MustElement(`[data-testid=compose-add-sources]`)
		if len(srv.Uploads(sim.ChatGPT)) != uploads || len(srv.Sources(sim.ChatGPT, "")) != 0 {
			t.Fatal("Cancel uploaded files")
		}
		ask()
		savePageShot(t, page, shots, "ferry-compose-project-sources.png")
		page.MustElement(`[data-testid=compose-sources-confirm]`).MustClick()
		if err := page.Timeout(2 * eventWithin).Wait(rod.Eval(`() => document.querySelector('[data-testid=compose-sources]')?.dataset.status === 'done'`)); err != nil {
			t.Fatalf("the files were not added: %v (%s)", err, page.MustElement(`[data-testid=compose-sources]`).MustText())
		}
		if got := page.MustEval(`() => [...document.querySelectorAll('[data-testid=compose-source-file]')].map(e => e.dataset.name + ':' + e.dataset.status).join(' ')`).Str(); got != "crossing-notes.md:added tides.csv:added" {
			t.Errorf("the outcome lists %q", got)
		}
		if got := page.MustElement(`[data-testid=compose-sources-done]`).MustText(); !strings.Contains(got, "Added to “Harbour notes”") {
			t.Errorf("the outcome reads %q", got)
		}
		got := map[string][]byte{}
		for _, src := range srv.Sources(sim.ChatGPT, "") {
			if src.Project != harbourNotes {
				t.Errorf("%s went to project %s, want %s", src.Name, src.Project, harbourNotes)
			}
			got[src.Name] = src.Body
		}
		if len(got) != 2 || !bytes.Equal(got["crossing-notes.md"], notesBody) || !bytes.Equal(got["tides.csv"], tidesBody) {
			t.Errorf("the project's sources hold %d files (%v), want the two files' bytes", len(got), got)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != sends {
			t.Errorf("adding sources sent %d prompts", n-sends)
		}
		page.MustElement(`[data-testid=compose-sources-close]`).MustClick()
		page.MustElement(`[data-testid=compose-add-sources]`)
	})

	t.Run("a run in a custom GPT typed by its address reaches the site in that GPT", func(t *testing.T) {
		openWhere()
		page.MustElement(`[data-testid=compose-project]`).MustSelect("Another project or GPT")
		page.MustElement(`[data-testid=compose-place-kind]`).MustSelect("Custom GPT")
		page.MustElement(`[data-testid=compose-place-text]`).MustInput("https://chatgpt.com/g/g-HarbourGuide1-harbour-guide")
		sub := sendAndWait(t, page, srv, gpt, gpt)
		if sub.Temporary || sub.Gizmo != "g-HarbourGuide1" {
			t.Fatalf("the send reached the site as %+v, want one in GPT g-HarbourGuide1", sub)
		}
	})

	t.Run("History says where each chat went", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		page.MustWait(`() => document.querySelectorAll('[data-testid=history-list] [role=option]').length === 3`)
		for _, tc := range []struct{ prompt, want string }{
			{temporary, "Temporary chat"},
			{project, "Project Harbour notes · Archived on the site"},
			{gpt, "Custom GPT https://chatgpt.com/g/g-HarbourGuide1"},
		} {
			page.MustElementR(`[data-testid=history-list] [role=option]`, tc.prompt).MustClick()
			if err := page.Timeout(eventWithin).Wait(rod.Eval(`(prompt, want) => (document.querySelector('[data-testid=detail-prompt]')?.textContent ?? '') === prompt &&
				(document.querySelector('[data-testid=detail-where]')?.textContent ?? '').includes(want)`, tc.prompt, tc.want)); err != nil {
				got := page.MustEval(`() => document.querySelector('[data-testid=detail-where]')?.textContent ?? 'no place shown'`).Str()
				t.Errorf("the run %q shows %q, want %q", tc.prompt, strings.Join(strings.Fields(got), " "), tc.want)
			}
		}
		savePageShot(t, page, shots, "ferry-history-where.png")
	})

	t.Run("another site offers none of the choices, and ChatGPT offers them afresh", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[data-testid=compose-site]`).MustSelect("Claude")
		page.MustWait(`() => !document.querySelector('[data-testid=compose-where]')`)
		page.MustElement(`[data-testid=compose-site]`).MustSelect("ChatGPT")
		page.MustWait(`() => !!document.querySelector('[data-testid=compose-where]')`)
		openWhere()
		if got := page.MustElement(`[data-testid=compose-project]`).MustProperty("value").Str(); got != "" {
			t.Errorf("back on ChatGPT the project picker holds %q", got)
		}
	})
}
