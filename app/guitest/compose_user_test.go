//go:build gui

package guitest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// overlapsJS lists the pairs of the selectors' first matches (within
// root) whose boxes overlap, as "a/b" strings.
const overlapsJS = `(root, sels) => {
	const scope = root ? document.querySelector(root) : document;
	const boxes = sels.map(s => [s, scope?.querySelector(s)?.getBoundingClientRect()]).filter(([, r]) => r && r.width > 0 && r.height > 0);
	const out = [];
	for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
		const [a, ra] = boxes[i], [b, rb] = boxes[j];
		if (ra.left < rb.right - 0.5 && rb.left < ra.right - 0.5 && ra.top < rb.bottom - 0.5 && rb.top < ra.bottom - 0.5) out.push(a + '/' + b);
	}
	return out.join(' ');
}`

// TestComposeWorksWithTheUser drives Compose as issue 19 asks, in a 900×600
// window against the simulator: the layout fits (Send above the fold, the
// counter off the text), Ctrl+2 puts the caret in the prompt, Ctrl+Enter
// twice sends once and empties the prompt, the view follows the stream
// until the user scrolls up, the card names the site, Copy answer, Open
// conversation in browser, a follow-up under the answer, the Tab option
// picks an open tab, a code-mode run to a site with two tabs offers them in
// place with no CLI words and runs again on the one picked, and a
// broadcast's columns keep their headers apart.
func TestComposeWorksWithTheUser(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	srv, _, app, page := composeOnSim(t, 6*time.Minute)
	if err := page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 900, Height: 600, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}

	t.Run("at 900x600 Send is in view, and the counter and the controls do not overlap", func(t *testing.T) {
		page.MustElement(`[data-testid=prompt]`).MustInput("How do river ferries cross a strong current?")
		page.MustWait(`() => document.querySelector('[data-testid=char-count]').textContent.startsWith('44 ')`)
		send := page.MustEval(`() => { const r = document.querySelector('[data-testid=send]').getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right, innerHeight, innerWidth].join(' '); }`).Str()
		var top, bottom, left, right, vh, vw float64
		if _, err := fmt.Sscan(send, &top, &bottom, &left, &right, &vh, &vw); err != nil {
			t.Fatal(err)
		}
		if top < 0 || bottom > vh || left < 0 || right > vw {
			t.Errorf("Send is at %s (top bottom left right, viewport %gx%g): not within the viewport", send, vw, vh)
		}
		if o := page.MustEval(overlapsJS, `[data-testid=compose-view]`, []string{`[data-testid=prompt]`, `[data-testid=char-count]`, `[data-testid=send]`}).Str(); o != "" {
			t.Errorf("overlapping: %s", o)
		}
		// ChatGPT has effort tiers, tools and places for a chat: their pickers sit in the row too.
		if page.MustEval(`() => !!document.querySelector('[data-testid=compose-effort]') && !!document.querySelector('[data-testid=compose-tool]') && !!document.querySelector('[data-testid=compose-where-toggle]')`).Bool() != true {
			t.Errorf("Compose on ChatGPT shows no effort, tool or where picker")
		}
		if o := page.MustEval(overlapsJS, `.composer .row.target`, []string{`.segmented`, `[data-testid=compose-site]`, `[data-testid=compose-model]`, `[data-testid=compose-effort]`, `[data-testid=compose-tool]`, `[data-testid=compose-newchat]`, `[data-testid=compose-where-toggle]`}).Str(); o != "" {
			t.Errorf("overlapping in the target row: %s", o)
		}
		shot := savePageShot(t, page, shots, "compose-900x600.png")
		if st, err := imageStats(shot); err != nil || st.Width != 900 || st.Height != 600 {
			t.Errorf("the screenshot is %+v (%v), want 900x600", st, err)
		}
	})

	t.Run("Ctrl+2 puts the caret in the prompt", func(t *testing.T) {
		page.KeyActions().Press(input.ControlLeft).Type('1').MustDo()
		waitTitle(t, page, "Tabs")
		// At 900 wide, "Launch browser" keeps to one line in its button.
		launch := page.MustElement(`[data-testid=browser-connect]`)
		if h := launch.MustEval(`() => { const r = this.getBoundingClientRect(); return this.scrollHeight <= this.clientHeight + 1 && r.height <= 32 ? 0 : r.height; }`).Int(); h != 0 {
			t.Errorf("the %q button wraps: %d px high", launch.MustText(), h)
		}
		page.KeyActions().Press(input.ControlLeft).Type('2').MustDo()
		waitTitle(t, page, "Compose")
		page.MustWait(`() => document.activeElement?.dataset?.testid === 'prompt'`)
	})

	var first, firstSession string
	t.Run("Ctrl+Enter twice sends once, empties the prompt, and the view follows the stream until the user scrolls up", func(t *testing.T) {
		prompt := "Tell me how a chain ferry works " + sim.Directive(sim.ScenarioLong, "size", "1800")
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(prompt)
		page.MustEval(`() => {
			window.__follow = [];
			const sc = document.querySelector('.view-body');
			window.__sampler = setInterval(() => {
				const runs = document.querySelector('[data-testid=runs]');
				const r = document.querySelector('[data-testid=live-run]');
				if (!runs || !r || r.dataset.ended === 'true') return;
				const len = r.querySelector('[data-testid=answer]')?.textContent.length ?? 0;
				window.__follow.push({len, gap: runs.getBoundingClientRect().bottom - sc.getBoundingClientRect().bottom, top: sc.scrollTop});
			}, 20);
		}`)
		page.MustElement(`[data-testid=prompt]`).MustFocus()
		page.KeyActions().Press(input.ControlLeft).Type(input.Enter).Type(input.Enter).MustDo()
		page.MustElement(`[data-testid=live-run]`)
		if v := page.MustElement(`[data-testid=prompt]`).MustProperty("value").Str(); v != "" {
			t.Errorf("the prompt still holds %q after the send", v)
		}
		if err := page.Timeout(60 * time.Second).Wait(rod.Eval(`() => (document.querySelector('[data-testid=live-run] [data-testid=answer]')?.textContent.length ?? 0) > 600`)); err != nil {
			t.Fatalf("the answer did not grow: %v", err)
		}
		followed := page.MustEval(`() => window.__follow.filter(s => s.len > 300 && s.gap <= 8 && s.top > 0).length`).Int()
		if followed == 0 {
			t.Errorf("the view never followed the stream to the end of the run: %s", page.MustEval(`() => JSON.stringify(window.__follow.slice(-5))`).Str())
		}
		// The user scrolls up to read: the view stays there.
		page.MustEval(`() => { document.querySelector('.view-body').scrollTop = 0; }`)
		time.Sleep(1500 * time.Millisecond)
		if top := page.MustEval(`() => document.querySelector('.view-body').scrollTop`).Int(); top > 40 {
			t.Errorf("the view scrolled back down to %d px while the user read above", top)
		}
		if st := page.MustElement(`[data-testid=live-run]`).MustAttribute("data-ended"); st != nil && *st == "true" {
			t.Log("the run ended before the scroll-up check; the check above saw the end")
		}
		if states := waitRunEnded(t, page, 1, 90*time.Second); states[0] != "done" {
			t.Fatalf("the run ended %s", states[0])
		}
		page.MustEval(`() => clearInterval(window.__sampler)`)
		if n := srv.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Errorf("%d submissions after Ctrl+Enter twice, want 1", n)
		}
		if site := page.MustElement(`[data-testid=live-run] [data-testid=run-site]`).MustText(); site != "ChatGPT" {
			t.Errorf("the card's header names %q, want ChatGPT", site)
		}
		first = *page.MustElement(`[data-testid=live-run]`).MustAttribute("data-run")
	})

	t.Run("Copy answer puts the whole answer on the clipboard", func(t *testing.T) {
		info := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, first)
		sess := info["session"].(map[string]any)
		firstSession = str(sess["id"])
		page.MustElement(`[data-testid=copy-answer]`).MustClick()
		want := str(sess["answer"])
		deadline := time.Now().Add(10 * time.Second)
		var got string
		for time.Now().Before(deadline) {
			if got = page.MustEval(`() => window.runtime.ClipboardGetText()`).Str(); got == want {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if got != want {
			t.Errorf("the clipboard holds %d characters %q…, want the answer's %d %q…", len(got), clip(got), len(want), clip(want))
		}
	})

	t.Run("Open conversation in browser shows the run's tab", func(t *testing.T) {
		page.MustElement(`[data-testid=show-in-browser]`).MustClick()
		shown := evalJSON(t, page, `(id) => window.go.app.Runs.ShowTab(id)`, firstSession)
		run := evalJSON(t, page, `(id) => window.go.app.Sessions.Show(id)`, firstSession)
		if shown["targetId"] == "" || shown["targetId"] != run["session"].(map[string]any)["targetId"] {
			t.Errorf("shown tab %v, the run's tab %v", shown["targetId"], run["session"].(map[string]any)["targetId"])
		}
		if n := page.MustEval(`() => document.querySelectorAll('.toast.error, [data-kind=error]').length`).Int(); n != 0 {
			t.Errorf("%d error toasts after Open conversation in browser", n)
		}
	})

	t.Run("a follow-up under the answer continues its conversation", func(t *testing.T) {
		run := evalJSON(t, page, `(id) => window.go.app.Sessions.Show(id)`, firstSession)
		conv := str(run["session"].(map[string]any)["conversationId"])
		page.MustElement(`[data-testid=follow-prompt]`).MustInput("And in winter?")
		page.MustElement(`[data-testid=follow-send]`).MustClick()
		page.MustWait(`(id) => document.querySelector('[data-testid=runs] [data-testid=live-run]')?.dataset.run !== id`, first)
		if err := page.Timeout(60 * time.Second).Wait(rod.Eval(`() => { const r = document.querySelector('[data-testid=runs] [data-testid=live-run]'); return r?.dataset.ended === 'true' && r.dataset.state === 'done'; }`)); err != nil {
			t.Fatalf("the follow-up did not finish: %v", err)
		}
		if n := srv.ConversationSubmissions(sim.ChatGPT, conv); conv == "" || n != 2 {
			t.Errorf("%d user turns in conversation %q, want 2", n, conv)
		}
		if got := page.MustElement(`[data-testid=earlier-runs] [data-testid=live-run]`).MustAttribute("data-run"); got == nil || *got != first {
			t.Errorf("the first run is not shown above the follow-up: %v", got)
		}
		if w := page.MustElement(`[data-testid=runs] [data-testid=run-where]`).MustText(); !strings.Contains(w, "follow-up") {
			t.Errorf("the follow-up's card says %q", w)
		}
	})

	var tabs []string
	t.Run("the Tab option picks one of the site's open tabs", func(t *testing.T) {
		evalJSON(t, page, `() => window.go.app.Tabs.Open('chatgpt')`)
		page.MustElement(`[data-testid=mode-tab]`).MustClick()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => document.querySelectorAll('[data-testid=compose-tab] option:not([disabled])').length >= 2`)); err != nil {
			t.Fatalf("the Tab picker lists %s", page.MustEval(`() => document.querySelector('[data-testid=compose-tab]')?.textContent ?? document.querySelector('.composer .row.target').textContent`).Str())
		}
		if d := page.MustElement(`[data-testid=mode-tab]`).MustProperty("disabled").Bool(); d {
			t.Error("the Tab option is greyed out")
		}
		tabs = strings.Fields(page.MustEval(`() => [...document.querySelectorAll('[data-testid=compose-tab] option:not([disabled])')].map(o => o.value).join(' ')`).Str())
		page.MustElement(`[data-testid=compose-tab]`).MustSelect(page.MustElement(`[data-testid=compose-tab] option:not([disabled])`).MustText())
		page.MustElement(`[data-testid=bound-tab]`)
		page.MustElement(`[data-testid=mode-site]`).MustClick()
	})

	t.Run("code mode with two tabs of the site offers them in place, in the window's words, and runs on the one picked", func(t *testing.T) {
		// The conversation on screen goes: its tab is closed and another
		// opened, so the two ChatGPT tabs left are ones Ferry cannot tell
		// apart (a send goes to the tab on screen, else the one Ferry last used).
		run := evalJSON(t, page, `(id) => window.go.app.Sessions.Show(id)`, firstSession)
		evalJSON(t, page, `(id) => window.go.app.Tabs.Close(id).then(() => ({}))`, str(run["session"].(map[string]any)["targetId"]))
		evalJSON(t, page, `() => window.go.app.Tabs.Open('chatgpt')`)
		clickOrShow(t, page, `[data-testid=code-summary]`, shots)
		page.MustElement(`[data-testid=code-mode]`).MustClick()
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Build a greeting CLI\n" + sim.Directive(sim.ScenarioCodeZip))
		page.MustElement(`[data-testid=send]`).MustClick()
		if err := page.Timeout(60 * time.Second).Wait(rod.Eval(`() => !!document.querySelector('[data-testid=run-problem][data-code=tab_ambiguous] [data-testid=tab-pick] li')`)); err != nil {
			t.Fatalf("no tabs to pick: %v\n%s", err, page.MustElement(`[data-testid=runs]`).MustText())
		}
		card := page.MustElement(`[data-testid=run-problem]`).MustText()
		if strings.Contains(card, "--") || strings.Contains(card, "ferry ") {
			t.Errorf("the error card names the CLI: %q", card)
		}
		offered := strings.Fields(page.MustEval(`() => [...document.querySelectorAll('[data-testid=tab-pick] li')].map(l => l.dataset.target).join(' ')`).Str())
		if len(offered) < 2 {
			t.Fatalf("offered tabs %v, want the two ChatGPT tabs %v", offered, tabs)
		}
		savePageShot(t, page, shots, "compose-tab-pick.png")
		before := srv.SubmissionCount(sim.ChatGPT)
		page.MustElement(`[data-testid=tab-pick] li[data-target="` + offered[1] + `"] [data-testid=tab-pick-send]`).MustClick()
		page.MustWait(`() => !document.querySelector('[data-testid=tab-pick]')`)
		if states := waitRunEnded(t, page, 1, 120*time.Second); states[0] != "done" {
			t.Fatalf("the run on the picked tab ended %s: %s", states[0], page.MustElement(`[data-testid=runs]`).MustText())
		}
		got := evalJSON(t, page, `() => window.go.app.Runs.Get(document.querySelector('[data-testid=runs] [data-testid=live-run]').dataset.run)`)
		routing, _ := got["session"].(map[string]any)["routing"].(map[string]any)
		if routing == nil || routing["controlled_tab_id"] != offered[1] {
			t.Errorf("the run drove tab %v, want the picked %s", routing, offered[1])
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != before+1 {
			t.Errorf("%d submissions after the pick, want %d", n, before+1)
		}
		page.MustElement(`[data-testid=code-mode]`).MustClick()
	})

	t.Run("the Tabs view puts spaces around its separators", func(t *testing.T) {
		page.KeyActions().Press(input.ControlLeft).Type('1').MustDo()
		waitTitle(t, page, "Tabs")
		page.MustElement(`[data-testid=browser-state][data-status=connected]`)
		page.MustWait(`() => document.querySelectorAll('[data-testid=tab-list] li[data-site=chatgpt]').length >= 2`)
		info := page.MustEval(`() => document.querySelector('[data-testid=tabs-view]').innerText`).Str()
		if strings.Contains(info, "·pid") || strings.Contains(info, "·https") || regexpMustMatch(`\d·`, info) || regexpMustMatch(`(chat|[0-9a-f])·`, info) {
			t.Errorf("a separator lacks its spaces in the Tabs view:\n%s", info)
		}
		if !regexpMustMatch(`(new chat|conversation \S+) · https://chatgpt\.com/`, info) || !regexpMustMatch(`\d · pid \d`, info) {
			t.Errorf("the Tabs view does not say “… · https://chatgpt.com/” and “… · pid …”:\n%s", info)
		}
		page.KeyActions().Press(input.ControlLeft).Type('2').MustDo()
		waitTitle(t, page, "Compose")
	})

	t.Run("a broadcast at 900 wide: Send to 1 site, the model menus fit, the column headers and the timeline keep apart", func(t *testing.T) {
		page.MustElement(`[data-testid=mode-broadcast]`).MustClick()
		page.MustWait(`() => document.querySelector('[data-testid=send]').textContent.trim() === 'Send to 1 site'`)
		for _, s := range []string{"claude", "gemini"} {
			page.MustElement(`[data-testid=broadcast-sites] input[data-site=` + s + `]`).MustClick()
		}
		page.MustWait(`() => document.querySelector('[data-testid=send]').textContent.trim() === 'Send to 3 sites'`)
		clipped := page.MustEval(`() => [...document.querySelectorAll('[data-testid=broadcast-sites] select')].filter(s => {
			const r = s.getBoundingClientRect(), f = s.closest('fieldset').getBoundingClientRect();
			const c = document.createElement('canvas').getContext('2d'); c.font = getComputedStyle(s).font;
			return r.right > f.right || c.measureText(s.options[s.selectedIndex].text).width > s.clientWidth - 8;
		}).length`).Int()
		if clipped != 0 {
			t.Errorf("%d model menus are clipped", clipped)
		}
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Compare ferries and bridges")
		page.MustElement(`[data-testid=send]`).MustClick()
		page.MustWait(`() => document.querySelectorAll('[data-testid=runs] [data-testid=live-run]').length === 3`)
		waitRunEnded(t, page, 3, 120*time.Second)
		n := page.MustEval(`() => document.querySelectorAll('[data-testid=runs] [data-testid=live-run]').length`).Int()
		for i := 0; i < n; i++ {
			root := `[data-testid=runs] .run-col:nth-child(` + strconv.Itoa(i+1) + `) [data-testid=live-run] header`
			if o := page.MustEval(overlapsJS, root, []string{`.who`, `[data-testid=run-state]`, `.actions`}).Str(); o != "" {
				t.Errorf("column %d: overlapping in the header: %s", i+1, o)
			}
		}
		if bad := page.MustEval(`() => [...document.querySelectorAll('[data-testid=run-timeline] li')].filter(l => {
			const st = l.querySelector('.st')?.getBoundingClientRect(), at = l.querySelector('.mono')?.getBoundingClientRect();
			return st && at && at.width > 0 && st.right > at.left + 0.5 && st.top < at.bottom && at.top < st.bottom;
		}).length`).Int(); bad != 0 {
			t.Errorf("%d timeline labels run into their times", bad)
		}
		// Every column is in the view: none scrolls sideways out of it.
		if out := page.MustEval(`() => {
			const runs = document.querySelector('[data-testid=runs]'), box = runs.getBoundingClientRect();
			const cols = [...runs.querySelectorAll(':scope > .run-col')];
			const off = cols.filter(c => c.getBoundingClientRect().right > box.right + 0.5).length;
			return (runs.scrollWidth > runs.clientWidth + 1 ? 'the runs scroll sideways; ' : '') + (off ? off + ' column(s) past the right edge' : '');
		}`).Str(); out != "" {
			t.Errorf("at 900 wide: %s", out)
		}
		if m := page.MustEval(`() => [...document.querySelectorAll('[data-testid=run-model]')].filter(e => !e.title).length`).Int(); m != 0 {
			t.Errorf("%d model names without a tooltip", m)
		}
		page.MustElement(`[data-testid=runs]`).MustScrollIntoView()
		savePageShot(t, page, shots, "compose-broadcast-900.png")
	})

	app.stop(t)
	if dir := os.Getenv("FERRY_SCREENSHOT_DIR"); dir != "" {
		t.Logf("screenshots in %s", filepath.Clean(dir))
	}
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60]
	}
	return s
}

// clickOrShow clicks the element, or fails saying what covers it.
func clickOrShow(t *testing.T, page *rod.Page, sel, shots string) {
	t.Helper()
	el, err := page.Timeout(eventWithin).Element(sel)
	if err == nil {
		err = el.Timeout(eventWithin).Click(proto.InputMouseButtonLeft, 1)
	}
	if err != nil {
		savePageShot(t, page, shots, "failed-click.png")
		t.Fatalf("click %s: %v; at its centre: %s", sel, err, page.MustEval(`(sel) => {
			const r = document.querySelector(sel)?.getBoundingClientRect();
			if (!r) return 'no element';
			const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return JSON.stringify(r) + ' ' + (e ? e.outerHTML.slice(0, 200) : 'nothing');
		}`, sel).Str())
	}
}

func regexpMustMatch(expr, s string) bool { return regexp.MustCompile(expr).MatchString(s) }
