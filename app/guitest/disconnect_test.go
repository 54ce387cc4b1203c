//go:build gui

package guitest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestClosingTheBrowserMidAnswerEndsTheRunAndCollectTheRestReadsIt closes
// the app's browser (Browser.close, as a user quitting it) while Claude's
// answer streams, from the real UI against the simulator: the card, its
// state badge, the sidebar and History all say the browser went away (never
// "Answer arriving", never "The tab is gone"); "Collect the rest" starts the
// browser again, opens the conversation and delivers the whole answer the
// site finished, and the simulator received the prompt once.
func TestClosingTheBrowserMidAnswerEndsTheRunAndCollectTheRestReadsIt(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	srv, _, app, page := composeOnSim(t, 5*time.Minute)

	const size = 6 << 10
	prompt := "Tell the long story of the ferry's night crossing\n" +
		sim.Directive(sim.ScenarioLong, "size", "6KiB", "chunk", "20", "interval", "60ms")
	page.MustElement(`[data-testid=compose-site]`).MustSelect("Claude")
	waitEval(t, page, 20*time.Second, "Claude chosen", `() => document.querySelector('[data-testid=compose-site]').value === 'claude'`)
	page.MustElement(`[data-testid=prompt]`).MustInput(prompt)
	page.MustElement(`[data-testid=send]`).MustClick()
	waitEval(t, page, 60*time.Second, "the answer streaming", `() => {
		const r = document.querySelector('[data-testid=live-run]');
		return !!r && r.dataset.state === 'streaming' && (r.querySelector('[data-testid=answer]')?.textContent.length ?? 0) > 300;
	}`)
	id := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.run`)

	// The user quits the app's browser.
	st := evalJSON(t, page, `() => window.go.app.Tabs.Browser()`)
	u, err := launcher.ResolveURL(str(st["endpoint"]))
	if err != nil {
		t.Fatal(err)
	}
	user := rod.New().ControlURL(u)
	if err := user.Connect(); err != nil {
		t.Fatal(err)
	}
	_ = proto.BrowserClose{}.Call(user)

	var session string
	t.Run("the card, its badge and the sidebar say the browser went away and offer Collect the rest", func(t *testing.T) {
		waitEval(t, page, 30*time.Second, "the run shown ended with its browser", `() => {
			const r = document.querySelector('[data-testid=live-run]');
			return r.dataset.ended === 'true' && r.dataset.state === 'browser_disconnected' && !!r.querySelector('[data-testid=run-collect]');
		}`)
		card := page.MustElement(`[data-testid=live-run]`).MustText()
		badge := page.MustElement(`[data-testid=live-run] [data-testid=run-state]`).MustText()
		if strings.TrimSpace(badge) != "Browser disconnected" {
			t.Errorf("the card's badge says %q", badge)
		}
		if !strings.Contains(card, "The browser went away") || strings.Contains(card, "The tab is gone") {
			t.Errorf("the card does not say the browser went away:\n%s", card)
		}
		if strings.Contains(card, "ferry ") || strings.Contains(card, "--session") {
			t.Errorf("the card names a command:\n%s", card)
		}
		waitEval(t, page, 20*time.Second, "the sidebar saying the browser is disconnected", `() => !!document.querySelector('[data-testid=health-browser]')`)
		got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id)
		sess, _ := got["session"].(map[string]any)
		errv, _ := got["error"].(map[string]any)
		if got["state"] != "browser_disconnected" || got["collectable"] != true || errv == nil || errv["code"] != "browser_disconnected" || sess == nil {
			t.Fatalf("the run reads state %v collectable %v error %v", got["state"], got["collectable"], errv)
		}
		session = str(sess["id"])
		page.MustElement(`[data-testid=live-run]`).MustScrollIntoView()
		savePageShot(t, page, shots, "browser-closed-run.png")
	})

	t.Run("History lists the run as disconnected, not as its answer arriving", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		row := `[data-testid=history-list] [role=option][data-id="` + session + `"]`
		waitEval(t, page, 20*time.Second, "the run listed disconnected", `(s) => document.querySelector(s + ' .state')?.dataset.state === 'browser_disconnected'`, row)
		if label := page.MustElement(row + ` .state`).MustText(); strings.TrimSpace(label) != "Browser disconnected" {
			t.Errorf("History's row says %q", label)
		}
	})

	t.Run("Collect the rest starts the browser again and delivers the whole answer, sent once", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[data-testid=live-run] [data-testid=run-collect]`).MustClick()
		waitEval(t, page, 120*time.Second, "the collected run done", `(id) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== id && r.dataset.ended === 'true' && ['done', 'failed', 'browser_disconnected', 'target_not_found'].includes(r.dataset.state);
		}`, id)
		if state := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.state`); state != "done" {
			t.Fatalf("Collect the rest ended %s:\n%s", state, page.MustElement(`[data-testid=live-run]`).MustText())
		}
		view := evalJSON(t, page, `(s) => window.go.app.Sessions.Show(s)`, session)
		sess, _ := view["session"].(map[string]any)
		if sess == nil || sess["state"] != "done" || len(str(sess["answer"])) < size {
			t.Fatalf("the run after collecting is %v with %d bytes of answer, want done with the whole answer (%d bytes)", sess["state"], len(str(sess["answer"])), size)
		}
		if n := srv.SubmissionCount(sim.Claude); n != 1 {
			t.Fatalf("the simulator received %d prompts, want 1 (%s)", n, fmt.Sprint(srv.Submissions(sim.Claude)))
		}
	})

	app.stop(t)
}
