//go:build gui

package guitest

import (
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
// where each chat went, and another site offers none of the choices.
func TestComposeSendsWhereTheChatGoes(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	srv, _, _, page := composeOnSim(t, 5*time.Minute)
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
