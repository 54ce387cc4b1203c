//go:build gui

package guitest

import (
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestACancelledRunKeepsItsTextAndCollectsTheRest cancels a long answer
// while it streams, from the real UI against the simulator: the card keeps
// the text that came, says the run was cancelled and offers "Collect the
// rest" (never a command); History lists the run as cancelled with that
// text; "Collect the rest" then gets the whole answer into the run.
func TestACancelledRunKeepsItsTextAndCollectsTheRest(t *testing.T) {
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

	t.Run("Collect the rest gets the whole answer into the run", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[data-testid=live-run] [data-testid=run-collect]`).MustClick()
		waitEval(t, page, 90*time.Second, "the collected run done", `(id) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== id && r.dataset.ended === 'true' && r.dataset.state === 'done';
		}`, id)
		shown := page.MustEval(`() => document.querySelector('[data-testid=live-run] [data-testid=answer]')?.textContent.length ?? 0`).Int()
		if shown <= partial {
			t.Errorf("the card shows %d characters after collecting, %d before", shown, partial)
		}
		view := evalJSON(t, page, `(s) => window.go.app.Sessions.Show(s)`, session)
		sess, _ := view["session"].(map[string]any)
		if sess == nil || sess["state"] != "done" || sess["answerPartial"] == true || len(str(sess["answer"])) < size {
			t.Fatalf("the run after collecting is %v (partial %v) with %d bytes of answer, want done with the whole answer", sess["state"], sess["answerPartial"], len(str(sess["answer"])))
		}
	})

	app.stop(t)
}
