//go:build gui

package guitest

import (
	"slices"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// sendAndWait types prompt into Compose and sends it with Ctrl+Enter, then
// waits until the simulator has received it and the run on show ended
// done with an answer holding each of answerHas. It returns what the
// simulator received.
func sendAndWait(t *testing.T, page *rod.Page, srv *sim.Server, prompt string, answerHas ...string) sim.Submission {
	t.Helper()
	before := srv.SubmissionCount("chatgpt")
	page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(prompt)
	page.MustElement(`[data-testid=prompt]`).MustFocus()
	page.KeyActions().Press(input.ControlLeft).Type(input.Enter).MustDo()
	waitFor(t, 90*time.Second, "the simulator to receive "+prompt, func() bool { return srv.SubmissionCount("chatgpt") > before })
	if err := page.Timeout(90 * time.Second).Wait(rod.Eval(`(has) => {
		const r = document.querySelector('[data-testid=live-run]');
		const a = r?.querySelector('[data-testid=answer]')?.textContent ?? '';
		return r && r.dataset.ended === 'true' && r.dataset.state === 'done' && has.every((h) => a.includes(h));
	}`, answerHas)); err != nil {
		t.Fatalf("the send of %q did not end done: %v (%s)", prompt, err,
			page.MustEval(`() => document.querySelector('[data-testid=live-run]')?.innerText ?? 'no run'`).Str())
	}
	subs := srv.Submissions("chatgpt")
	if n := len(subs) - before; n != 1 {
		t.Fatalf("the simulator counted %d submissions for %q, want 1", n, prompt)
	}
	return subs[len(subs)-1]
}

// historyRows is a JavaScript expression: the prompts of the History
// list's rows, top first, each with the tool its chip shows ("" for none).
const historyRows = `[...document.querySelectorAll('[data-testid=history-list] [role=option]')].map(r =>
	(r.querySelector('[data-testid=history-prompt]')?.textContent ?? '') + '=' + (r.querySelector('[data-testid=history-tool-chip]')?.dataset.tool ?? '')).join(' | ')`

// TestHistoryFiltersRunsByTool records two runs from Compose against the
// simulator, one with ChatGPT's web search switched on and one with no
// tool, and filters History by tool: each run shows its tool as a chip,
// and the tool filter narrows the list to the runs of that tool, or of
// none.
func TestHistoryFiltersRunsByTool(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	srv, _, _, page := composeOnSim(t, 4*time.Minute)
	shots := t.TempDir()

	const plain, searched = "Which ferry crosses the river first?", "When does the harbour ferry leave today?"
	t.Run("a run with no tool and a run with web search are recorded from Compose", func(t *testing.T) {
		if sub := sendAndWait(t, page, srv, plain, plain); len(sub.Tools) != 0 {
			t.Fatalf("the run without a tool sent the tools %v", sub.Tools)
		}
		page.MustElement(`[data-testid=compose-tool]`).MustSelect("web-search")
		if sub := sendAndWait(t, page, srv, searched, "the ferry timetable changed this week"); !slices.Contains(sub.Tools, "search") {
			t.Fatalf("the web search run sent the tools %v, want search", sub.Tools)
		}
	})

	page.MustElement(`[role=tab][data-view=history]`).MustClick()
	waitTitle(t, page, "History")
	all := searched + "=web-search | " + plain + "="
	rows := func() string { return page.MustEval(`() => ` + historyRows).Str() }
	waitRows := func(t *testing.T, what, want string) {
		t.Helper()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`(want) => (`+historyRows+`) === want`, want)); err != nil {
			t.Fatalf("%s lists %q, want %q", what, rows(), want)
		}
	}

	t.Run("each run shows its tool as a chip, a run without one none", func(t *testing.T) {
		waitRows(t, "History", all)
		if chip := page.MustElement(`[data-testid=history-tool-chip]`).MustText(); chip != "Web search" {
			t.Errorf("the chip reads %q, want Web search", chip)
		}
		savePageShot(t, page, shots, "ferry-history-tools.png")
	})

	t.Run("the tool filter offers no tool and the sites' tools beside the other filters", func(t *testing.T) {
		opts := page.MustEval(`() => [...document.querySelectorAll('[data-testid=history-tool] option')].map(o => o.value + '=' + o.textContent.trim()).join(' | ')`).Str()
		if want := "=All tools | none=No tool | deep-research=Deep research | image=Image | web-search=Web search"; opts != want {
			t.Errorf("the tool filter offers %q, want %q", opts, want)
		}
		if same := page.MustEval(`() => document.querySelector('[data-testid=history-tool]').parentElement === document.querySelector('[data-testid=history-site]').parentElement`).Bool(); !same {
			t.Error("the tool filter is not in the toolbar beside the site filter")
		}
	})

	t.Run("the tool filter narrows the list to the runs of a tool, or of none", func(t *testing.T) {
		for _, tc := range []struct{ pick, want string }{
			{"Web search", searched + "=web-search"},
			{"No tool", plain + "="},
			{"Deep research", ""},
			{"All tools", all},
		} {
			page.MustElement(`[data-testid=history-tool]`).MustSelect(tc.pick)
			waitRows(t, tc.pick, tc.want)
		}
	})

	t.Run("the tool combines with the search text", func(t *testing.T) {
		page.MustElement(`[data-testid=history-tool]`).MustSelect("No tool")
		page.MustElement(`[data-testid=history-search]`).MustInput("harbour")
		waitRows(t, "harbour with no tool", "")
		page.MustElement(`[data-testid=history-tool]`).MustSelect("Web search")
		waitRows(t, "harbour with web search", searched+"=web-search")
	})

	t.Run("the opened run says its tool was switched on", func(t *testing.T) {
		page.MustElement(`[data-testid=history-list] [role=option]`).MustClick()
		page.MustWait(`() => (document.querySelector('[data-testid=detail-tool]')?.textContent ?? '').includes('switched on')`)
		if got := page.MustElement(`[data-testid=detail-tool]`).MustText(); got != "Web search switched on" {
			t.Errorf("the detail's tool reads %q", got)
		}
		savePageShot(t, page, shots, "ferry-history-tool-detail.png")
	})
}
