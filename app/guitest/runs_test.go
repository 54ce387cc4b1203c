//go:build gui

package guitest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// evalStr evaluates js (which may return a promise) and returns its string.
func evalStr(t testing.TB, page *rod.Page, js string, args ...any) string {
	t.Helper()
	res, err := page.Evaluate(rod.Eval(js, args...).ByPromise())
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	return res.Value.Str()
}

// waitEval waits until js returns true, failing with what explain returns.
func waitEval(t *testing.T, page *rod.Page, within time.Duration, what, js string, args ...any) {
	t.Helper()
	if err := page.Timeout(within).Wait(rod.Eval(js, args...)); err != nil {
		t.Fatalf("%s within %s: %v\n%s", what, within, err,
			page.MustEval(`() => [...document.querySelectorAll('[data-testid=live-run], [data-testid=active-runs], [data-testid=toast]')].map(e => (e.dataset.run || '') + ' ' + (e.dataset.state || '') + ' ' + e.textContent.slice(0, 300)).join('\n')`).Str())
	}
}

// TestRunsFromEveryOrigin drives the live-run features against the
// simulator: a template sent untouched is recorded by its session and an
// edited one is sent as text; runs of a paired agent and of the CLI through
// the gateway show in Active runs with their answers streaming in and end
// done; a broadcast to a site with several open tabs goes to the one Ferry
// last used there, or with "New chat on every site" to new chats; Cancel
// mid-stream shows the run cancelled and Retry starts a new run, which the
// Active runs list cancels.
func TestRunsFromEveryOrigin(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	// The machine is shared: the whole drive gets a generous deadline.
	srv, dir, app, page := composeOnSim(t, 8*time.Minute)
	ctx := page.GetContext()
	page.MustElement(`[data-testid=active-runs][data-count="0"]`)

	liveRun := func() string {
		return evalStr(t, page, `() => document.querySelector('[data-testid=live-run]')?.dataset.run ?? ''`)
	}
	// sendAndWait sends with the Send button and waits for the new run
	// (not the one shown before) to end; it returns the run's id and state.
	sendAndWait := func(t *testing.T, within time.Duration) (string, string) {
		t.Helper()
		before := liveRun()
		page.MustElement(`[data-testid=send]`).MustClick()
		waitEval(t, page, 30*time.Second, "a new run panel", `(before) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== before;
		}`, before)
		states := waitRunEnded(t, page, 1, within)
		return liveRun(), states[0]
	}

	t.Run("a template sent untouched is recorded by its session, an edited one is sent as text", func(t *testing.T) {
		page.MustElement(`[data-testid=template-filter]`).MustInput("fix")
		page.MustElement(`[data-template=fix-bug]`).MustClick()
		page.MustElement(`[data-var=component]`).MustInput("the ferry timetable")
		page.MustElement(`[data-var=symptom]`).MustInput("it skips Sundays")
		page.MustElement(`[data-testid=template-fill]`).MustClick()
		rendered := "Fix this bug in the ferry timetable: it skips Sundays"
		page.MustWait(`(w) => document.querySelector('[data-testid=prompt]').value.startsWith(w)`, rendered)
		if m := page.MustElement(`[data-testid=template-use]`).MustAttribute("data-mode"); m == nil || *m != "template" {
			t.Fatalf("the untouched rendering is marked %v, want template", m)
		}
		id, state := sendAndWait(t, 60*time.Second)
		if state != "done" {
			t.Fatalf("the template run ended %s", state)
		}
		got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id)
		sess, _ := got["session"].(map[string]any)
		vars, _ := got["vars"].(map[string]any)
		if sess == nil || sess["template"] != "fix-bug" || !strings.HasPrefix(str(sess["prompt"]), rendered) {
			t.Fatalf("the session records template %v and prompt %v, want fix-bug and its rendering", sess["template"], sess["prompt"])
		}
		if vars["component"] != "the ferry timetable" || vars["symptom"] != "it skips Sundays" {
			t.Errorf("the run records variables %v", got["vars"])
		}
		if txt := page.MustElement(`[data-testid=live-run] [data-testid=run-template]`).MustText(); txt != "template fix-bug" {
			t.Errorf("the live run says %q about its template", txt)
		}
		// What History exports for the session names the template.
		md := evalStr(t, page, `(id) => window.go.app.Sessions.Export(id, 'md')`, str(sess["id"]))
		if !strings.Contains(md, "**Template:** fix-bug") {
			t.Errorf("the session's Markdown export does not name the template:\n%s", md)
		}

		page.MustElement(`[data-testid=template-fill]`).MustClick()
		page.MustWait(`(w) => document.querySelector('[data-testid=prompt]').value.startsWith(w)`, rendered)
		edited := evalStr(t, page, `() => document.querySelector('[data-testid=prompt]').value`) + " Please hurry."
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(edited)
		page.MustWait(`() => document.querySelector('[data-testid=template-use]')?.dataset.mode === 'edited'`)
		savePageShot(t, page, shots, "ferry-compose-template-edited.png")
		id, state = sendAndWait(t, 60*time.Second)
		if state != "done" {
			t.Fatalf("the edited run ended %s", state)
		}
		got = evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id)
		sess, _ = got["session"].(map[string]any)
		if sess == nil || sess["template"] != nil || sess["prompt"] != edited {
			t.Errorf("the edited run's session records template %v and prompt %q, want no template and the edited text", sess["template"], sess["prompt"])
		}
		if page.MustHas(`[data-testid=live-run] [data-testid=run-template]`) {
			t.Errorf("the edited run claims a template")
		}
	})

	t.Run("a tool chosen in Compose is switched on, proven and recorded with the run", func(t *testing.T) {
		page.MustElement(`[data-testid=compose-tool]`).MustSelect("web-search")
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("What is new on the river today?")
		id, state := sendAndWait(t, 60*time.Second)
		if state != "done" {
			t.Fatalf("the run with a tool ended %s: %s", state, page.MustElement(`[data-testid=live-run]`).MustText())
		}
		got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id)
		sess, _ := got["session"].(map[string]any)
		tool, _ := sess["tool"].(map[string]any)
		if tool == nil || tool["requested"] != "web-search" || tool["selected"] != "Web search" || tool["verified"] != true {
			t.Fatalf("the run records the tool %v, want web-search, its pill and the request's proof", sess["tool"])
		}
		subs := srv.Submissions(sim.ChatGPT)
		if last := subs[len(subs)-1]; last.Prompt != "What is new on the river today?" || !slices.Equal(last.Tools, []string{"search"}) {
			t.Fatalf("the site got %q with tools %v, want the prompt alone with the search hint", last.Prompt, last.Tools)
		}
		page.MustElement(`[data-testid=compose-tool]`).MustSelect("None")
	})

	hubFile := filepath.Join(dir, "data", "hub.json")
	owner, err := client.Discover(ctx, hubFile)
	if err != nil {
		t.Fatalf("discover the app's gateway: %v", err)
	}

	// watchActive follows run id in the Active runs list: it opens the row,
	// samples the shown answer every few milliseconds, and returns the
	// distinct lengths it saw before the run left the list, ending as want.
	watchActive := func(t *testing.T, id, origin, who, want string, shot string) []int {
		t.Helper()
		sel := `[data-testid=active-run][data-run="` + id + `"]`
		row, err := page.Timeout(eventWithin).Element(sel)
		if err != nil {
			t.Fatalf("job %s is not listed in Active runs: %v", id, err)
		}
		if o := row.MustAttribute("data-origin"); o == nil || *o != origin {
			t.Errorf("job %s is listed with origin %v, want %s", id, o, origin)
		}
		if w := row.MustElement(`[data-testid=active-origin]`).MustText(); w != who {
			t.Errorf("job %s is listed as asked by %q, want %q", id, w, who)
		}
		page.MustEval(`(sel) => {
			window.__lens = [];
			window.__watch = setInterval(() => {
				const t = document.querySelector(sel + ' [data-testid=active-text] [data-testid=answer]');
				if (t) window.__lens.push(t.textContent.length);
			}, 5);
		}`, sel)
		row.MustElement(`[data-testid=active-open]`).MustClick()
		if shot != "" {
			waitEval(t, page, 45*time.Second, "the answer so far in Active runs", `(sel) => !document.querySelector(sel) || (document.querySelector(sel + ' [data-testid=active-text]')?.textContent.length ?? 0) > 40`, sel)
			savePageShot(t, page, shots, shot)
		}
		waitEval(t, page, 90*time.Second, "the run ending in Active runs", `(id, want) => {
			return !document.querySelector('[data-testid=active-run][data-run="' + id + '"]') &&
				document.querySelector('[data-testid=ended-run][data-run="' + id + '"]')?.dataset.state === want;
		}`, id, want)
		page.MustEval(`() => clearInterval(window.__watch)`)
		var lens []int
		seen := map[int]bool{}
		for _, v := range page.MustEval(`() => window.__lens`).Arr() {
			if n := v.Int(); n > 0 && !seen[n] {
				seen[n] = true
				lens = append(lens, n)
			}
		}
		return lens
	}

	t.Run("an agent's run and a CLI run through the gateway show in Active runs, streaming, and end done", func(t *testing.T) {
		code := str(evalJSON(t, page, `() => window.go.app.Gateway.PairingCode()`)["code"])
		agentEP, clientID, err := client.Pair(ctx, owner.Port, code, "codex")
		if err != nil {
			t.Fatalf("pair: %v", err)
		}
		evalJSON(t, page, `(id) => window.go.app.Gateway.SetAutoApprove(id, true)`, clientID)
		agent := client.New(agentEP)
		j, err := agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "Which ferries cross the Elbe at Glückstadt?", NewChat: true})
		if err != nil {
			t.Fatalf("the agent's job: %v", err)
		}
		if j.State == hub.StateAwaitingApproval {
			t.Fatalf("the auto-approved agent's job waits for approval")
		}
		lens := watchActive(t, j.ID, "agent", "agent codex", "done", "ferry-active-runs.png")
		if len(lens) < 3 {
			t.Errorf("Active runs showed the agent's answer at %d distinct lengths %v, want it streaming in", len(lens), lens)
		}
		t.Logf("the agent's answer was seen at %d lengths", len(lens))
		if fin, err := agent.GetJob(ctx, j.ID); err != nil || fin.State != "done" {
			t.Errorf("the agent sees its job %s (%v), want done", fin.State, err)
		}

		cli := client.New(owner)
		cj, err := cli.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "When does the last ferry leave?", NewChat: true})
		if err != nil {
			t.Fatalf("the CLI's job: %v", err)
		}
		lens = watchActive(t, cj.ID, "cli", "CLI", "done", "")
		if len(lens) < 3 {
			t.Errorf("Active runs showed the CLI's answer at %d distinct lengths %v, want it streaming in", len(lens), lens)
		}
		page.MustElement(`[data-testid=ended-run][data-run="` + cj.ID + `"] [data-testid=ended-history]`).MustClick()
		waitTitle(t, page, "History")
		waitEval(t, page, 15*time.Second, "History showing the CLI's run", `() => document.querySelector('[data-testid=detail-prompt]')?.textContent === 'When does the last ferry leave?'`)
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
	})

	t.Run("a broadcast to a site with several open tabs goes to the tab Ferry last used, or to new chats", func(t *testing.T) {
		page.MustElement(`[data-testid=mode-broadcast]`).MustClick()
		page.MustElement(`[data-testid=broadcast-sites] input[data-site=claude]`).MustClick()
		page.MustWait(`() => [...document.querySelectorAll('[data-testid=broadcast-sites] input:checked')].map(i => i.dataset.site).sort().join() === 'chatgpt,claude'`)
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Compare the river ferries")
		page.MustElement(`[data-testid=send]`).MustClick()
		waitEval(t, page, 30*time.Second, "two columns", `() => document.querySelectorAll('[data-testid=live-run]').length === 2`)
		states := waitRunEnded(t, page, 2, 90*time.Second)
		if strings.Join(states, " ") != "done done" {
			t.Fatalf("without a new chat the broadcast ended %v, want both done (ChatGPT in the tab Ferry last used)", states)
		}
		chat := evalJSON(t, page, `() => window.go.app.Runs.Get(document.querySelector('[data-testid=live-run]').dataset.run)`)
		if routing, _ := chat["session"].(map[string]any)["routing"].(map[string]any); routing == nil || routing["tab_was_created"] != false {
			t.Errorf("the ChatGPT column ran in %v, want a tab already open", routing)
		}
		page.MustElement(`[data-testid=broadcast-newchat]`).MustClick()
		before := evalStr(t, page, `() => [...document.querySelectorAll('[data-testid=live-run]')].map(r => r.dataset.run).join()`)
		// A sent prompt leaves the editor (issue 19): the same prompt is typed again.
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Compare the river ferries")
		page.MustElement(`[data-testid=send]`).MustClick()
		waitEval(t, page, 30*time.Second, "two new columns", `(before) => {
			const ids = [...document.querySelectorAll('[data-testid=live-run]')].map(r => r.dataset.run);
			return ids.length === 2 && ids.every(id => !before.split(',').includes(id));
		}`, before)
		states = waitRunEnded(t, page, 2, 90*time.Second)
		if strings.Join(states, " ") != "done done" {
			t.Fatalf("with a new chat on every site the broadcast ended %v", states)
		}
		for _, id := range strings.Split(evalStr(t, page, `() => [...document.querySelectorAll('[data-testid=live-run]')].map(r => r.dataset.run).join()`), ",") {
			if got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id); got["newChat"] != true {
				t.Errorf("broadcast run %s was not sent in a new chat: %v", id, got["newChat"])
			}
		}
		savePageShot(t, page, shots, "ferry-broadcast-newchat.png")
	})

	t.Run("Cancel mid-stream shows the run cancelled and Retry starts a new run", func(t *testing.T) {
		page.MustElement(`[data-testid=mode-site]`).MustClick()
		if !page.MustElement(`[data-testid=compose-newchat]`).MustProperty("checked").Bool() {
			page.MustElement(`[data-testid=compose-newchat]`).MustClick()
		}
		// The answer streams to its last piece and holds still there: a
		// Cancel pressed while the text still grows can move under the
		// pointer (the view follows the stream, Active runs sits below it),
		// and the run goes on exactly as long as the test needs.
		prompt := "Tell the long story of the ferry\n" + sim.Directive(sim.ScenarioLong, "size", "4KiB", "chunk", "200", "hold", "cancel-mid-stream")
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(prompt)
		before := liveRun()
		page.MustElement(`[data-testid=send]`).MustClick()
		waitEval(t, page, 60*time.Second, "the long answer streaming up to its hold", `(before) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== before && r.dataset.state === 'streaming' &&
				(r.querySelector('[data-testid=answer]')?.textContent.length ?? 0) > 3000;
		}`, before)
		first := liveRun()
		page.MustElement(`[data-testid=live-run] [data-testid=run-cancel]`).MustClick()
		// A cancelled run ends once the site stopped writing (the job's stop
		// bound, a minute, catches a hang): on a loaded machine the presses
		// and looks that takes can add up to half a minute (CI, load 23).
		waitEval(t, page, cancelShown, "the run shown cancelled", `() => {
			const r = document.querySelector('[data-testid=live-run]');
			return r.dataset.ended === 'true' && r.dataset.state === 'cancelled';
		}`)
		if n := page.MustEval(`() => document.querySelector('[data-testid=live-run] [data-testid=answer]')?.textContent.length ?? 0`).Int(); n < 100 {
			t.Errorf("the cancelled run shows %d characters of its answer, want the part that came", n)
		}
		got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, first)
		if got["state"] != "cancelled" || got["collectable"] != true {
			t.Errorf("the cancelled run reads state %v collectable %v, want cancelled and collectable", got["state"], got["collectable"])
		}
		savePageShot(t, page, shots, "ferry-live-run-cancelled.png")

		page.MustElement(`[data-testid=live-run] [data-testid=run-retry]`).MustClick()
		waitEval(t, page, 30*time.Second, "the retried run", `(first) => {
			const r = document.querySelector('[data-testid=live-run]');
			return r.dataset.run !== first && r.dataset.ended === 'false';
		}`, first)
		second := liveRun()
		if got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, second); got["prompt"] != prompt || got["newChat"] != true {
			t.Errorf("the retried run sends %q (new chat %v), want the same prompt in a new chat", got["prompt"], got["newChat"])
		}
		// The new run is listed in Active runs; its Cancel there stops it.
		_, err := page.Timeout(eventWithin).Element(`[data-testid=active-run][data-run="` + second + `"]`)
		if err != nil {
			t.Fatalf("the retried run is not in Active runs: %v", err)
		}
		waitEval(t, page, 60*time.Second, "the retried run streaming up to its hold", `() => (document.querySelector('[data-testid=live-run] [data-testid=answer]')?.textContent.length ?? 0) > 3000`)
		// Cancel is pressed until the row says the run is cancelling (or the
		// run has ended): the page can still move under the pointer between
		// a press's aim and the press (the run's panel above grows as its
		// details arrive; a missed press once landed 93 px above the button).
		pressCancel(t, page, second)
		defer func() {
			if t.Failed() {
				t.Logf("the retried run as the app reads it: %v", evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, second)["state"])
			}
		}()
		waitEval(t, page, cancelShown, "the retried run cancelled from Active runs", `(id) => {
			const r = document.querySelector('[data-testid=live-run]');
			return r.dataset.ended === 'true' && r.dataset.state === 'cancelled' &&
				document.querySelector('[data-testid=ended-run][data-run="' + id + '"]')?.dataset.state === 'cancelled';
		}`, second)
	})

	app.stop(t)
	t.Logf("screenshots in %s", shots)
}

// pressCancel presses the Cancel of run id in Active runs, found anew each
// time, until the row reads as cancelling or is gone (the run ended); a
// press that missed (the button moved between the aim and the press) is
// made again, up to ten.
func pressCancel(t *testing.T, page *rod.Page, id string) {
	t.Helper()
	row := `[data-testid=active-run][data-run="` + id + `"]`
	acknowledged := `(row) => { const r = document.querySelector(row); return !r || r.querySelector('[data-testid=active-cancel]').disabled; }`
	for i := 0; i < 10; i++ {
		if btn, err := page.Timeout(10 * time.Second).Element(row + ` [data-testid=active-cancel]:not([disabled])`); err == nil {
			if err := btn.Click(proto.InputMouseButtonLeft, 1); err != nil {
				t.Logf("pressing Cancel: %v", err)
			}
		}
		if page.Timeout(5*time.Second).Wait(rod.Eval(acknowledged, row)) == nil {
			return
		}
		t.Logf("a press of Cancel did not reach the button (press %d): pressed again", i+1)
	}
	t.Fatalf("ten presses of Cancel in Active runs never reached the button of run %s", id)
}

// cancelShown bounds the wait for a cancelled run to show it: the stop
// bound of a cancelled run (job.stopBound) and half a minute more.
const cancelShown = 90 * time.Second
