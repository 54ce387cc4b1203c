//go:build gui

package guitest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// writeBrowserSettings writes a settings file whose browser is a headless
// Chromium mapped to the simulator, so the app's own long-lived browser
// talks to srv at the sites' real addresses.
func writeBrowserSettings(t *testing.T, dir string, srv *sim.Server) {
	t.Helper()
	file := filepath.Join(dir, "data", "settings.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{
		"theme":   "light",
		"browser": map[string]any{"binary": "/usr/bin/chromium", "headless": true, "extraArgs": srv.ChromiumFlags()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// waitRunEnded waits until the live run panel(s) all show an ended run
// and returns their states, in column order.
func waitRunEnded(t *testing.T, page *rod.Page, n int, within time.Duration) []string {
	t.Helper()
	err := page.Timeout(within).Wait(rod.Eval(`(n) => {
		const runs = [...document.querySelectorAll('[data-testid=live-run]')];
		return runs.length === n && runs.every(r => r.dataset.ended === 'true' && !['starting', 'streaming'].includes(r.dataset.state));
	}`, n))
	if err != nil {
		t.Fatalf("the run panels did not end within %s: %v (states %s)", within, err,
			page.MustEval(`() => [...document.querySelectorAll('[data-testid=live-run]')].map(r => r.dataset.state + '/' + r.dataset.ended).join(' ')`).Str())
	}
	var states []string
	for _, s := range strings.Fields(page.MustEval(`() => [...document.querySelectorAll('[data-testid=live-run]')].map(r => r.dataset.state).join(' ')`).Str()) {
		states = append(states, s)
	}
	return states
}

// composeOnSim starts the simulator (at a pace slow enough that an answer
// arrives in many visible pieces), the dev app on a fresh data directory
// set to browse it, and its shell in a browser, opened on Compose with the
// sites listed; the page gets deadline for the whole drive. It returns the
// simulator, the data directory's parent, the app and the page.
func composeOnSim(t *testing.T, deadline time.Duration) (*sim.Server, string, *devApp, *rod.Page) {
	t.Helper()
	return composeOnSimEnv(t, deadline, nil)
}

// composeOnSimEnv is composeOnSim with the environment variables env added
// to the app's (the dev binary's dialog answers, for instance).
func composeOnSimEnv(t *testing.T, deadline time.Duration, env []string) (*sim.Server, string, *devApp, *rod.Page) {
	t.Helper()
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	srv := sim.New(sim.WithPace(3, 30*time.Millisecond), sim.WithRateLimitLock(2*time.Second))
	if err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)

	dir := t.TempDir()
	writeBrowserSettings(t, dir, srv)
	app := startDevAppEnv(t, bin, dir, env)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	page := openShell(t, b, app.url).Context(ctx)

	page.MustElement(`[role=tab][data-view=compose]`).MustClick()
	waitTitle(t, page, "Compose")
	page.MustWait(`() => [...document.querySelectorAll('[data-testid=compose-site] option')].some(o => o.value === 'chatgpt')`)
	return srv, dir, app, page
}

// TestComposeAndRun drives a whole run from the real UI against the
// simulator: compose and send with Ctrl+Enter, watch the answer stream into
// the live run, find it in History, see the browser's tabs, bind a tab,
// send a code-mode run whose verified zip appears in Artifacts ready to be
// dragged out, and broadcast one prompt to two sites side by side.
func TestComposeAndRun(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	// openShell's page times out 30 s after it opened; this test sends
	// four runs, so it gets a deadline of its own for the whole drive.
	srv, dir, app, page := composeOnSim(t, 5*time.Minute)

	prompt := "Tell me about lighthouse keepers on river ferries"
	var sessionID string

	t.Run("the prompt editor counts characters and the templates filter as you type", func(t *testing.T) {
		page.MustElement(`[data-testid=template-filter]`).MustInput("fb")
		page.MustWait(`() => document.querySelector('[data-testid=template-list] [data-template]')?.dataset.template === 'fix-bug'`)
		page.MustElement(`[data-testid=template-filter]`).MustSelectAllText().MustInput("")
		page.MustElement(`[data-testid=prompt]`).MustInput(prompt)
		page.MustWait(`(n) => document.querySelector('[data-testid=char-count]').textContent.startsWith(String(n) + ' ')`, len([]rune(prompt)))
		savePageShot(t, page, shots, "ferry-compose.png")
	})

	t.Run("Ctrl+Enter sends and the answer streams into the live run", func(t *testing.T) {
		// Sample the panel every few milliseconds from the page itself, so
		// a partial answer is caught even between two Go polls.
		page.MustEval(`() => {
			window.__samples = [];
			window.__sampler = setInterval(() => {
				const r = document.querySelector('[data-testid=live-run]');
				if (!r) return;
				const a = r.querySelector('[data-testid=answer]');
				window.__samples.push({ended: r.dataset.ended === 'true', state: r.dataset.state, len: a ? a.textContent.length : 0});
			}, 5);
		}`)
		page.MustElement(`[data-testid=prompt]`).MustFocus()
		page.KeyActions().Press(input.ControlLeft).Type(input.Enter).MustDo()
		page.MustElement(`[data-testid=live-run]`)
		// A screenshot mid-stream, when the answer has begun.
		if err := page.Timeout(45 * time.Second).Wait(rod.Eval(`() => {
			const r = document.querySelector('[data-testid=live-run]');
			return r && (r.dataset.ended === 'true' || (r.querySelector('[data-testid=answer]')?.textContent.length ?? 0) > 60);
		}`)); err != nil {
			t.Fatalf("no answer began: %v", err)
		}
		savePageShot(t, page, shots, "ferry-live-run-streaming.png")
		states := waitRunEnded(t, page, 1, 60*time.Second)
		page.MustEval(`() => clearInterval(window.__sampler)`)
		if states[0] != "done" {
			t.Fatalf("the run ended %s: %s", states[0], page.MustElement(`[data-testid=live-run]`).MustText())
		}
		answer := page.MustElement(`[data-testid=live-run] [data-testid=answer]`).MustText()
		if !strings.Contains(answer, "That is the whole answer.") || !strings.Contains(answer, "lighthouse keepers") {
			t.Errorf("the final answer reads %q", answer)
		}
		final := page.MustEval(`() => document.querySelector('[data-testid=live-run] [data-testid=answer]').textContent.length`).Int()
		partial := page.MustEval(`(final) => window.__samples.filter(s => !s.ended && s.len > 0 && s.len < final).length`, final).Int()
		if partial == 0 {
			t.Errorf("no partial answer was on screen before the run ended (samples: %s)", page.MustEval(`() => JSON.stringify(window.__samples.slice(-5))`).Str())
		}
		t.Logf("%d samples showed a partial answer before the end", partial)
		steps := page.MustEval(`() => [...document.querySelectorAll('[data-testid=run-timeline] li')].map(l => l.dataset.state).join(' ')`).Str()
		for _, want := range []string{"resolved", "submitted", "streaming", "done"} {
			if !strings.Contains(steps, want) {
				t.Errorf("timeline %q lacks %s", steps, want)
			}
		}
		// The steps speak the user's words; the pipeline's names are behind
		// a closed Details (issue 19, point 4).
		labels := page.MustEval(`() => [...document.querySelectorAll('[data-testid=run-timeline] li .st')].map(l => l.textContent).join('|')`).Str()
		for _, want := range []string{"Finding the tab", "Checking the tab", "Sending", "Waiting for the answer", "Done"} {
			if !strings.Contains(labels, want) {
				t.Errorf("steps %q lack %q", labels, want)
			}
		}
		for _, raw := range []string{"preflighted", "resolved", "submitted"} {
			if strings.Contains(labels, raw) {
				t.Errorf("steps %q name the pipeline's %q", labels, raw)
			}
		}
		details := page.MustElement(`[data-testid=live-run] [data-testid=run-details]`)
		if details.MustProperty("open").Bool() || !strings.Contains(details.MustProperty("textContent").Str(), "preflighted") {
			t.Errorf("the technical record is not kept behind a closed Details")
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Errorf("%d submissions, want 1", n)
		}
		got := evalJSON(t, page, `() => window.go.app.Runs.Get(document.querySelector('[data-testid=live-run]').dataset.run)`)
		sess, _ := got["session"].(map[string]any)
		if sess == nil || sess["origin"] != "desktop" {
			t.Fatalf("the run's session %v, want origin desktop", got["session"])
		}
		sessionID = str(sess["id"])
		savePageShot(t, page, shots, "ferry-live-run.png")
	})

	t.Run("History search finds the run", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		page.MustElement(`[data-testid=history-search]`).MustInput("lighthouse")
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`(id) => {
			const rows = [...document.querySelectorAll('[data-testid=history-list] [role=option]')];
			return rows.length === 1 && rows[0].dataset.id === id;
		}`, sessionID)); err != nil {
			t.Fatalf("History did not find session %s: %v", sessionID, err)
		}
	})

	t.Run("Follow up in History continues the conversation from Compose, and History shows the thread", func(t *testing.T) {
		page.MustElement(`[data-testid=history-list] [role=option][data-id="` + sessionID + `"]`).MustClick()
		page.MustElement(`[data-testid=follow-up]`).MustClick()
		waitTitle(t, page, "Compose")
		if chip := page.MustElement(`[data-testid=follow-up]`).MustText(); !strings.Contains(chip, "Follow up") || !strings.Contains(chip, "ChatGPT") {
			t.Fatalf("the composer's follow-up reads %q", chip)
		}
		// Code mode is off for a follow-up, and says so: not that ChatGPT makes no zips.
		if sum := page.MustElement(`[data-testid=code-summary]`).MustText(); strings.Contains(sum, "produces no sandbox zips") || !strings.Contains(sum, "not for follow-ups") {
			t.Errorf("for a follow-up to ChatGPT code mode reads %q", sum)
		}
		first := evalJSON(t, page, `(id) => window.go.app.Sessions.Show(id)`, sessionID)
		conv := str(first["session"].(map[string]any)["conversationId"])
		follow := "And which of them kept a logbook?"
		// The cards already shown (an earlier run's) are not the follow-up's.
		before := page.MustEval(`() => [...document.querySelectorAll('[data-testid=live-run]')].map(r => r.dataset.run)`).Arr()
		known := make([]string, 0, len(before))
		for _, v := range before {
			known = append(known, v.Str())
		}
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(follow)
		page.KeyActions().Press(input.ControlLeft).Type(input.Enter).MustDo()
		var runID string
		if err := page.Timeout(60 * time.Second).Wait(rod.Eval(`(known) => [...document.querySelectorAll('[data-testid=live-run]')].some(r => !known.includes(r.dataset.run) && r.dataset.ended === 'true')`, known)); err != nil {
			t.Fatalf("the follow-up's run did not end: %v", err)
		}
		res := page.MustEval(`(known) => { const r = [...document.querySelectorAll('[data-testid=live-run]')].find(r => !known.includes(r.dataset.run)); return {id: r.dataset.run, state: r.dataset.state}; }`, known)
		runID = res.Get("id").Str()
		if st := res.Get("state").Str(); st != "done" {
			t.Fatalf("the follow-up ended %s", st)
		}
		if n := srv.ConversationSubmissions(sim.ChatGPT, conv); conv == "" || n != 2 {
			t.Fatalf("%d user turns in conversation %q, want 2", n, conv)
		}
		got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, runID)
		sess, _ := got["session"].(map[string]any)
		if sess == nil || sess["parent"] != sessionID || sess["conversationId"] != conv {
			t.Fatalf("the follow-up's session %v, want parent %s in conversation %s", sess, sessionID, conv)
		}
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		page.MustElement(`[data-testid=history-search]`).MustSelectAllText().MustInput("logbook")
		page.MustElement(`[data-testid=history-list] [role=option][data-id="` + str(sess["id"]) + `"]`).MustClick()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`(first) => {
			const items = [...document.querySelectorAll('[data-testid=thread] li')];
			return items.length === 2 && !!items[0].querySelector('[data-id="' + first + '"]');
		}`, sessionID)); err != nil {
			t.Fatalf("History does not show the thread of two runs: %v\n%s", err, page.MustElement(`[data-testid=history-detail]`).MustText())
		}
		page.MustElement(`[data-testid=history-search]`).MustSelectAllText().MustInput("")
	})

	var chatTab string
	t.Run("Tabs shows the launched browser and the run's tab, and opens another site", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=tabs]`).MustClick()
		waitTitle(t, page, "Tabs")
		page.MustElement(`[data-testid=browser-state][data-status=connected]`)
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => !!document.querySelector('[data-testid=tab-list] li[data-site=chatgpt][data-state=ready]')`)); err != nil {
			t.Fatalf("no ready ChatGPT tab listed: %v\n%s", err, page.MustEval(`() => [...document.querySelectorAll('[data-testid=tab-list] li')].map(l => l.dataset.site + '/' + l.dataset.state + ': ' + l.textContent).join('\n') || document.querySelector('[data-testid=tabs-view]').textContent`).Str())
		}
		chatTab = *page.MustElement(`[data-testid=tab-list] li[data-site=chatgpt]`).MustAttribute("data-tab")
		page.MustElement(`[data-testid=open-site]`).MustSelect("DeepSeek")
		page.MustElement(`[data-testid=open-tab]`).MustClick()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => !!document.querySelector('[data-testid=tab-list] li[data-site=deepseek]')`)); err != nil {
			t.Fatalf("the opened DeepSeek tab is not listed: %v", err)
		}
		if st := page.MustElement(`[data-testid=tab-list] li[data-site=deepseek]`).MustAttribute("data-state"); st == nil || *st != "ready" {
			t.Errorf("the new DeepSeek tab is %v, want ready", st)
		}
		savePageShot(t, page, shots, "ferry-tabs.png")
	})

	t.Run("Use in Compose binds the tab and a code-mode run brings back a verified, draggable zip", func(t *testing.T) {
		page.MustElement(`[data-testid=tab-list] li[data-site=chatgpt] [data-testid=use-in-compose]`).MustClick()
		waitTitle(t, page, "Compose")
		if txt := page.MustElement(`[data-testid=bound-tab]`).MustText(); !strings.Contains(txt, "ChatGPT") {
			t.Errorf("the bound tab reads %q", txt)
		}
		page.MustElement(`[data-testid=code-summary]`).MustClick()
		page.MustElement(`[data-testid=code-mode]`).MustClick()
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Build a greeting CLI\n" + sim.Directive(sim.ScenarioCodeZip))
		page.MustElement(`[data-testid=send]`).MustClick()
		page.MustWait(`() => document.querySelector('[data-testid=live-run]')?.dataset.state !== 'done'`)
		states := waitRunEnded(t, page, 1, 90*time.Second)
		if states[0] != "done" {
			t.Fatalf("the code run ended %s: %s", states[0], page.MustElement(`[data-testid=live-run]`).MustText())
		}
		got := evalJSON(t, page, `() => window.go.app.Runs.Get(document.querySelector('[data-testid=live-run]').dataset.run)`)
		sess, _ := got["session"].(map[string]any)
		routing, _ := sess["routing"].(map[string]any)
		if routing == nil || routing["controlled_tab_id"] != chatTab {
			t.Errorf("the code run drove tab %v, want the bound %s", routing, chatTab)
		}
		arts := page.MustElement(`[data-testid=run-artifacts]`).MustText()
		if !strings.Contains(arts, ".zip") {
			t.Errorf("the run lists artifacts %q", arts)
		}
		// The answer's sandbox link is what Ferry saved: a chip to the zip,
		// never the raw link only the site can open.
		answer := page.MustElement(`[data-testid=live-run] [data-testid=answer]`)
		if txt := answer.MustText(); strings.Contains(txt, "sandbox:") || strings.Contains(txt, "[Download") {
			t.Errorf("the code run's answer shows the raw sandbox link: %q", txt)
		}
		chip, err := answer.Element(`[data-testid=saved-file][data-path]`)
		if err != nil {
			t.Errorf("the answer holds no chip of the saved zip: %v\n%s", err, answer.MustHTML())
		} else if want := page.MustElement(`[data-testid=run-artifacts] [data-testid=run-artifact-link]`).MustAttribute("data-path"); *chip.MustAttribute("data-path") != *want {
			t.Errorf("the answer's chip leads to %s, want the saved %s", *chip.MustAttribute("data-path"), *want)
		}
		savePageShot(t, page, shots, "ferry-live-run-code.png")
		// The zip came through the browser's download manager, and its
		// entry has left the browser's download list (issue 19, point 8).
		// The clean-up runs in the background, a second or two after the save.
		ab := appBrowser(t, page)
		for end := time.Now().Add(15 * time.Second); ; {
			urls := downloadList(t, ab)
			if len(urls) == 0 {
				break
			}
			if time.Now().After(end) {
				t.Errorf("the browser's download list still holds %q after the zip was saved", urls)
				break
			}
		}
		// The answer's zip line leads to that zip in Artifacts (issue 19, point 8).
		link := page.MustElement(`[data-testid=run-artifacts] [data-testid=run-artifact-link]`)
		zipPath := *link.MustAttribute("data-path")
		link.MustClick()
		waitTitle(t, page, "Artifacts")
		page.MustWait(`(p) => [...document.querySelectorAll('[data-testid=artifact].focused')].map(c => c.dataset.path).join() === p`, zipPath)
		card := page.MustElement(`[data-testid=artifact][data-status=verified]`)
		if d := card.MustAttribute("draggable"); d == nil || *d != "true" {
			t.Errorf("the run's zip is not draggable: %v", d)
		}
		drag := card.MustEval(`() => {
			const dt = new DataTransfer();
			const cancelled = !this.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt}));
			return {cancelled, uri: dt.getData('text/uri-list')};
		}`).Map()
		if drag["cancelled"].Bool() || !strings.HasPrefix(drag["uri"].Str(), "file://"+filepath.Join(dir, "data")) || !strings.HasSuffix(drag["uri"].Str(), ".zip") {
			t.Errorf("dragging the run's zip carries %v", drag)
		}
	})

	t.Run("a broadcast answers side by side in columns", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[data-testid=mode-broadcast]`).MustClick()
		page.MustElement(`[data-testid=broadcast-sites] input[data-site=claude]`).MustClick()
		page.MustWait(`() => [...document.querySelectorAll('[data-testid=broadcast-sites] input:checked')].map(i => i.dataset.site).sort().join() === 'chatgpt,claude'`)
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Compare ferries and bridges")
		page.MustElement(`[data-testid=send]`).MustClick()
		page.MustWait(`() => document.querySelectorAll('[data-testid=live-run]').length === 2`)
		states := waitRunEnded(t, page, 2, 90*time.Second)
		if strings.Join(states, " ") != "done done" {
			t.Fatalf("broadcast runs ended %v: %s", states, page.MustElement(`[data-testid=runs]`).MustText())
		}
		tops := page.MustEval(`() => [...document.querySelectorAll('[data-testid=live-run]')].map(r => Math.round(r.getBoundingClientRect().top)).join(',')`).Str()
		if parts := strings.Split(tops, ","); len(parts) != 2 || parts[0] != parts[1] {
			t.Errorf("the two answers are not side by side (tops %s)", tops)
		}
		for _, want := range []string{providertest.NormalAnswer("Compare ferries and bridges")[:20]} {
			if n := page.MustEval(`(w) => [...document.querySelectorAll('[data-testid=live-run] [data-testid=answer]')].filter(a => a.textContent.includes(w)).length`, want).Int(); n != 2 {
				t.Errorf("%d columns show the answer %q, want 2", n, want)
			}
		}
		page.MustElement(`[data-testid=runs]`).MustScrollIntoView()
		savePageShot(t, page, shots, "ferry-broadcast.png")
		evalJSON(t, page, `() => window.go.app.Settings.Get().then(s => window.go.app.Settings.Save({...s, theme: 'dark'}))`)
		page.MustWait(`() => document.documentElement.dataset.theme === 'dark'`)
		savePageShot(t, page, shots, "ferry-broadcast-dark.png")
	})

	app.stop(t)
	t.Logf("screenshots in %s", shots)
}

// downloadList reads the download list (chrome://downloads) of the browser
// b, in a tab of its own that it closes, once the list has loaded.
func downloadList(t *testing.T, b *rod.Browser) []string {
	t.Helper()
	p, err := b.Page(proto.TargetCreateTarget{URL: "chrome://downloads/"})
	if err != nil {
		t.Fatalf("open the download list: %v", err)
	}
	defer p.Close()
	p = p.Timeout(eventWithin)
	// The list has arrived once the page's loaded_ promise is fulfilled.
	if err := p.Wait(rod.Eval(`() => { const m = document.querySelector('downloads-manager'); return !!(m && m.items_ && m.browserProxy_ && m.loaded_?.isFulfilled_); }`)); err != nil {
		t.Fatalf("the download list is not the page Ferry knows: %v", err)
	}
	var urls []string
	if err := json.Unmarshal([]byte(p.MustEval(`() => JSON.stringify(document.querySelector('downloads-manager').items_.map(i => i.url))`).Str()), &urls); err != nil {
		t.Fatal(err)
	}
	return urls
}
