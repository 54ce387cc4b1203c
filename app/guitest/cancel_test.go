//go:build gui

package guitest

import (
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestACancelledRunKeepsItsTextAndCollectsTheRest cancels a long answer
// while it streams, from the real UI against the simulator: the card keeps
// the text that came, says the run was cancelled and offers "Collect the
// rest" (never a command); History lists the run as cancelled with that
// text; "Collect the rest" then gets the answer as the site kept it (Cancel
// stopped the site) into the run.
func TestACancelledRunKeepsItsTextAndCollectsTheRest(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	_, _, app, page := composeOnSim(t, 5*time.Minute)

	const size = 12 << 10
	prompt := "Tell the long story of the ferry, paragraph by paragraph\n" +
		sim.Directive(sim.ScenarioLong, "size", "12KiB", "chunk", "30", "interval", "60ms")
	page.MustElement(`[data-testid=prompt]`).MustInput(prompt)
	page.MustElement(`[data-testid=send]`).MustClick()
	// The view follows the stream past its height: the card's header, with
	// Cancel, stays pinned in view instead of moving under the pointer.
	waitEval(t, page, 60*time.Second, "the long answer streaming past the view's height", `() => {
		const r = document.querySelector('[data-testid=live-run]');
		const sc = r?.closest('.view-body');
		return !!sc && r.dataset.state === 'streaming' &&
			(r.querySelector('[data-testid=answer]')?.textContent.length ?? 0) > 1000 &&
			r.getBoundingClientRect().top < sc.getBoundingClientRect().top - 100;
	}`)
	if where := evalStr(t, page, `() => {
		const b = document.querySelector('[data-testid=live-run] [data-testid=run-cancel]').getBoundingClientRect();
		const v = document.querySelector('.view-body').getBoundingClientRect();
		return b.top >= v.top && b.bottom <= v.bottom ? '' : 'Cancel at ' + b.top + '..' + b.bottom + ', the view ' + v.top + '..' + v.bottom;
	}`); where != "" {
		t.Errorf("while the view follows the stream, Cancel is out of view: %s", where)
	}
	id := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.run`)
	page.MustElement(`[data-testid=live-run] [data-testid=run-cancel]`).MustClick()

	var partial int
	var session string
	t.Run("the card keeps the partial text, says cancelled and offers Collect the rest", func(t *testing.T) {
		waitEval(t, page, 30*time.Second, "the run shown cancelled", `() => {
			const r = document.querySelector('[data-testid=live-run]');
			return r.dataset.ended === 'true' && r.dataset.state === 'cancelled' && !!r.querySelector('[data-testid=run-collect]');
		}`)
		partial = page.MustEval(`() => document.querySelector('[data-testid=live-run] [data-testid=answer]')?.textContent.length ?? 0`).Int()
		if partial < 1000 || partial >= size {
			t.Errorf("the cancelled card shows %d characters, want the part that came (over 1000, under %d)", partial, size)
		}
		card := page.MustElement(`[data-testid=live-run]`).MustText()
		if !strings.Contains(page.MustElement(`[data-testid=run-partial]`).MustText(), "Cancelled") {
			t.Errorf("the card does not say the answer was cancelled")
		}
		if strings.Contains(card, "ferry ") || strings.Contains(card, "--session") {
			t.Errorf("the card names a command:\n%s", card)
		}
		got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id)
		sess, _ := got["session"].(map[string]any)
		if got["state"] != "cancelled" || got["collectable"] != true || sess == nil || sess["state"] != "cancelled" || sess["answerPartial"] != true {
			t.Fatalf("the run reads state %v collectable %v, its session %v partial %v", got["state"], got["collectable"], sess["state"], sess["answerPartial"])
		}
		session = str(sess["id"])
		page.MustElement(`[data-testid=live-run]`).MustScrollIntoView()
		savePageShot(t, page, shots, "cancelled-run.png")
	})

	t.Run("History lists the run as cancelled with its partial text", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		row := `[data-testid=history-list] [role=option][data-id="` + session + `"]`
		waitEval(t, page, 20*time.Second, "the run listed cancelled", `(s) => document.querySelector(s + ' .state')?.dataset.state === 'cancelled'`, row)
		page.MustElement(row).MustClick()
		waitEval(t, page, 20*time.Second, "the detail with the partial answer", `() => !!document.querySelector('[data-testid=detail-partial]')`)
		shown := page.MustEval(`() => document.querySelector('[data-testid=history-detail] [data-testid=markdown]')?.textContent.length ?? 0`).Int()
		if shown < 1000 {
			t.Errorf("History shows %d characters of the cancelled run's answer", shown)
		}
	})

	// Cancel stopped the site: "Collect the rest" reads the answer as the
	// site kept it (what it wrote up to the stop), no longer partial.
	t.Run("Collect the rest gets the answer as the site kept it into the run", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[data-testid=live-run] [data-testid=run-collect]`).MustClick()
		waitEval(t, page, 90*time.Second, "the collected run done", `(id) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== id && r.dataset.ended === 'true' && r.dataset.state === 'done';
		}`, id)
		shown := page.MustEval(`() => document.querySelector('[data-testid=live-run] [data-testid=answer]')?.textContent.length ?? 0`).Int()
		if shown < partial {
			t.Errorf("the card shows %d characters after collecting, %d before", shown, partial)
		}
		view := evalJSON(t, page, `(s) => window.go.app.Sessions.Show(s)`, session)
		sess, _ := view["session"].(map[string]any)
		if sess == nil || sess["state"] != "done" || sess["answerPartial"] == true || len([]rune(str(sess["answer"]))) < partial {
			t.Fatalf("the run after collecting is %v (partial %v) with %d bytes of answer, want done with at least the %d characters shown", sess["state"], sess["answerPartial"], len(str(sess["answer"])), partial)
		}
	})

	app.stop(t)
}

// TestCancelStopsTheSiteAndTheNextPromptIsAnsweredAtOnce cancels a long
// ChatGPT answer from the real UI and sends the next prompt at once: Cancel
// pressed ChatGPT's stop control (the card says ChatGPT stopped), and the
// next prompt is answered in the same tab, where a site still writing
// would hold it on "Finding the tab" and fail with tab_busy. Then ChatGPT's
// stop control is made to do nothing: the card of the next cancelled run
// says ChatGPT did not stop, and the prompt after it is answered in another
// tab.
func TestCancelStopsTheSiteAndTheNextPromptIsAnsweredAtOnce(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	srv, _, app, page := composeOnSim(t, 5*time.Minute)

	// Each long answer streams for about 30 s: longer than the tab's
	// readiness bound (20 s) after the cancel.
	long := func(topic string) string {
		return topic + "\n" + sim.Directive(sim.ScenarioLong, "size", "16KiB", "chunk", "30", "interval", "60ms")
	}
	send := func(prompt string) {
		page.MustElement(`[data-testid=prompt]`).MustInput(prompt)
		page.MustElement(`[data-testid=send]`).MustClick()
	}
	// cancelStreaming sends prompt, cancels it once its answer streams and
	// returns the run's id once its card shows it cancelled.
	cancelStreaming := func(t *testing.T, prompt, stopped string) string {
		t.Helper()
		send(prompt)
		// Past the view's height the card's header, with Cancel, is
		// pinned; before that it moves as the answer grows, and a click
		// can land where it was.
		waitEval(t, page, 60*time.Second, "the long answer streaming past the view's height", `() => {
			const r = document.querySelector('[data-testid=live-run]');
			const sc = r?.closest('.view-body');
			return !!sc && r.dataset.state === 'streaming' && (r.querySelector('[data-testid=answer]')?.textContent.length ?? 0) > 1000 &&
				r.getBoundingClientRect().top < sc.getBoundingClientRect().top - 100;
		}`)
		id := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.run`)
		page.MustElement(`[data-testid=live-run] [data-testid=run-cancel]`).MustClick()
		waitEval(t, page, 60*time.Second, "the run shown cancelled", `(id) => {
			const r = document.querySelector('[data-testid=live-run]');
			return r.dataset.run === id && r.dataset.ended === 'true' && r.dataset.state === 'cancelled' && !!r.querySelector('[data-testid=run-partial]');
		}`, id)
		if got := evalStr(t, page, `() => document.querySelector('[data-testid=run-partial]').dataset.siteStopped`); got != stopped {
			t.Fatalf("the cancelled card says site_stopped=%q (%q), want %q", got, page.MustElement(`[data-testid=run-partial]`).MustText(), stopped)
		}
		return id
	}
	// answered sends prompt and wants it answered; it returns the tab it
	// ran in.
	answered := func(t *testing.T, after, prompt string) string {
		t.Helper()
		send(prompt)
		waitEval(t, page, 90*time.Second, "the next run ended", `(id) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== id && r.dataset.ended === 'true';
		}`, after)
		card := page.MustElement(`[data-testid=live-run]`)
		if st := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.state`); st != "done" {
			t.Fatalf("the prompt sent right after the cancel ended %s:\n%s", st, card.MustText())
		}
		if a := page.MustElement(`[data-testid=live-run] [data-testid=answer]`).MustText(); !strings.Contains(a, prompt) {
			t.Fatalf("the prompt sent right after the cancel got %q, not its own answer", a)
		}
		return tabOf(t, page, evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.run`))
	}

	var tab string
	t.Run("Cancel stops ChatGPT and the next prompt is answered at once in the same tab", func(t *testing.T) {
		id := cancelStreaming(t, long("Tell the long story of the ferry"), "true")
		if !strings.Contains(page.MustElement(`[data-testid=run-partial]`).MustText(), "ChatGPT stopped writing") {
			t.Errorf("the card does not say ChatGPT stopped: %q", page.MustElement(`[data-testid=run-partial]`).MustText())
		}
		if honored, _ := srv.StopPresses(sim.ChatGPT); honored == 0 {
			t.Fatalf("Cancel never pressed ChatGPT's stop control")
		}
		tab = tabOf(t, page, id)
		if got := answered(t, id, "A short question right after the cancel"); got != tab {
			t.Fatalf("the next prompt ran in tab %s, not the cancelled run's %s", got, tab)
		}
	})

	t.Run("a ChatGPT that will not stop is said so and the next prompt goes to another tab", func(t *testing.T) {
		srv.RefuseStop(sim.ChatGPT, true)
		id := cancelStreaming(t, long("Tell the long story of the river"), "false")
		if note := page.MustElement(`[data-testid=run-partial]`).MustText(); !strings.Contains(note, "ChatGPT did not stop writing") {
			t.Errorf("the card does not say ChatGPT did not stop: %q", note)
		}
		if got := answered(t, id, "Another short question after the cancel"); got == tabOf(t, page, id) {
			t.Fatalf("the next prompt ran in tab %s, the one still writing", got)
		}
	})

	app.stop(t)
}

// tabOf is the tab run id (a job id) ran in.
func tabOf(t *testing.T, page *rod.Page, id string) string {
	t.Helper()
	got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id)
	sess, _ := got["session"].(map[string]any)
	if sess == nil || str(sess["targetId"]) == "" {
		t.Fatalf("run %s names no tab: %v", id, got)
	}
	return str(sess["targetId"])
}
