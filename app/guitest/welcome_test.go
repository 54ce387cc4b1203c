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
	"github.com/go-rod/rod/lib/launcher"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// writeHeadfulSettings sets the app's browser to a headful Chromium mapped
// to srv: logging in needs a window.
func writeHeadfulSettings(t *testing.T, dir string, srv *sim.Server, extra map[string]any) {
	t.Helper()
	file := filepath.Join(dir, "data", "settings.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	s := map[string]any{
		"theme":   "light",
		"browser": map[string]any{"binary": "/usr/bin/chromium", "headless": false, "extraArgs": srv.ChromiumFlags()},
	}
	for k, v := range extra {
		s[k] = v
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// welcomeCard waits for the Get started card of site whose login reads
// state, and returns it.
func welcomeCard(t *testing.T, page *rod.Page, site, state string, within time.Duration) *rod.Element {
	t.Helper()
	el, err := page.Timeout(within).Element(`[data-testid=welcome-sites] [data-site=` + site + `][data-state=` + state + `]`)
	if err != nil {
		t.Fatalf("the %s card never read %s: %v\n%s", site, state, err,
			page.MustEval(`() => document.querySelector('[data-testid=welcome-sites]')?.innerText || ''`).Str())
	}
	return el
}

// appBrowser connects to the browser the app launched (its DevTools
// endpoint, as the Tabs API reports it), without ever closing it.
func appBrowser(t *testing.T, page *rod.Page) *rod.Browser {
	t.Helper()
	endpoint := page.MustEval(`async () => (await window.go.app.Tabs.Browser()).endpoint`).Str()
	if endpoint == "" {
		t.Fatal("the app's browser reports no endpoint")
	}
	u, err := launcher.ResolveURL(endpoint)
	if err != nil {
		t.Fatalf("resolve the app's browser at %s: %v", endpoint, err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		t.Fatalf("connect to the app's browser: %v", err)
	}
	return b
}

// loginTab waits for the app's browser to show a tab on prefix.
func loginTab(t *testing.T, b *rod.Browser, prefix string, within time.Duration) *rod.Page {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		pages, err := b.Pages()
		if err == nil {
			for _, p := range pages {
				if info, err := p.Info(); err == nil && strings.HasPrefix(info.URL, prefix) {
					return p
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tab on %s in the app's browser within %s", prefix, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestGetStarted drives the first run: a fresh data directory opens on Get
// started with the machine checks and a card per site; "Log in" on Claude,
// logged out in the simulator, opens its login page in the app's own
// browser, in front; completing the login on that page turns the card to
// Logged in by itself; "Continue to Ferry" is remembered; and once a run
// exists the app opens on its normal view without the badge.
func TestGetStarted(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	srv := sim.New(sim.WithPace(8, 12*time.Millisecond))
	if err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	srv.SetScenario(sim.Claude, sim.Scenario{Name: sim.ScenarioLoggedOut})
	dir := t.TempDir()
	shots := t.TempDir()
	writeHeadfulSettings(t, dir, srv, nil)
	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url).Timeout(3 * time.Minute)

	t.Run("a fresh data directory opens on Get started with the machine checks and a card per site", func(t *testing.T) {
		waitTitle(t, page, "Get started")
		view := page.MustElement(`[data-testid=get-started]`)
		for _, id := range []string{"browser", "display", "datadir"} {
			if _, err := page.Timeout(eventWithin).Element(`[data-testid=get-started] [data-testid=doctor] [data-check=` + id + `]`); err != nil {
				t.Errorf("no %s check on Get started: %v", id, err)
			}
		}
		if n := view.MustEval(`function () { return this.querySelectorAll('[data-testid=doctor] [data-check]').length }`).Int(); n != 3 {
			t.Errorf("%d machine checks shown, want the 3 that matter", n)
		}
		names := map[string]string{"chatgpt": "ChatGPT", "gemini": "Gemini", "claude": "Claude", "grok": "Grok", "kimi": "Kimi",
			"deepseek": "DeepSeek", "aistudio": "Google AI Studio"}
		for id, name := range names {
			card := welcomeCard(t, page, id, "no_browser", eventWithin)
			if got := card.MustElement(`.name`).MustText(); got != name {
				t.Errorf("the %s card is named %q, want %q", id, got, name)
			}
			card.MustElement(`.site-icon`)
			if got := card.MustElement(`[data-testid=login-state]`).MustText(); got != "Browser not running" {
				t.Errorf("the %s card reads %q before the browser runs", id, got)
			}
			if got := card.MustElement(`[data-testid=log-in]`).MustText(); got != "Log in" {
				t.Errorf("the %s card's button reads %q", id, got)
			}
		}
		if got := view.MustElement(`.demo-slot`).MustText(); !strings.Contains(got, "See Ferry work against a built-in simulator, before logging in anywhere") {
			t.Errorf("the demo slot reads %q", got)
		}
		if label := page.MustElement(`[data-testid=welcome-badge]`).MustAttribute("aria-label"); label == nil || *label != "No site logged in" {
			t.Errorf("the badge's label is %v", label)
		}
	})

	t.Run("Log in opens the site's login page in front and the card turns to Logged in by itself", func(t *testing.T) {
		page.MustEval(`() => { window.__sameDocument = true; }`)
		clicked := time.Now()
		welcomeCard(t, page, "claude", "no_browser", eventWithin).MustElement(`[data-testid=log-in]`).MustClick()
		welcomeCard(t, page, "claude", "logged_out", 90*time.Second)
		t.Logf("Log in: the browser started and the login page read %s after the click", time.Since(clicked).Round(10*time.Millisecond))
		ab := appBrowser(t, page)
		login := loginTab(t, ab, "https://claude.ai/login", eventWithin)
		if v := login.MustEval(`() => document.visibilityState`).Str(); v != "visible" {
			t.Errorf("the login tab is %s, want it in front", v)
		}
		if n := srv.SubmissionCount(sim.Claude); n != 0 {
			t.Errorf("logging in sent %d prompt(s)", n)
		}
		// The user completes the login on the site's page.
		login.MustElement(`form button[type=submit]`).MustClick()
		submitted := time.Now()
		card := welcomeCard(t, page, "claude", "logged_in", 60*time.Second)
		t.Logf("the card read Logged in %s after Continue (the view polls every 2 s)", time.Since(submitted).Round(10*time.Millisecond))
		if got := card.MustElement(`[data-testid=login-state]`).MustText(); got != "Logged in" {
			t.Errorf("the logged-in card reads %q", got)
		}
		// Gemini has no tab and was never seen: nothing was read of it yet.
		if got := welcomeCard(t, page, "gemini", "not_checked", eventWithin).MustElement(`[data-testid=login-state]`).MustText(); got != "Not checked" {
			t.Errorf("the Gemini card, never checked, reads %q", got)
		}
		if !page.MustEval(`() => window.__sameDocument === true`).Bool() {
			t.Error("the window reloaded to show the login")
		}
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => !document.querySelector('[data-testid=welcome-badge]')`)); err != nil {
			t.Errorf("the badge stayed with Claude logged in: %v", err)
		}
		savePageShot(t, page, shots, "get-started.png")
	})

	t.Run("Continue to Ferry opens Compose, is remembered, and the view reopens from the sidebar and Settings", func(t *testing.T) {
		page.MustElement(`[data-testid=welcome-continue]`).MustClick()
		waitTitle(t, page, "Compose")
		var saved struct {
			WelcomeDismissed bool `json:"welcomeDismissed"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "data", "settings.json"))
		if err != nil || json.Unmarshal(b, &saved) != nil || !saved.WelcomeDismissed {
			t.Errorf("settings after Continue: %s (%v)", b, err)
		}
		page.MustElement(`[data-testid=open-welcome]`).MustClick()
		waitTitle(t, page, "Get started")
		page.MustElement(`[role=tab][data-view=settings]`).MustClick()
		waitTitle(t, page, "Settings")
		page.MustElement(`[data-testid=settings-welcome]`).MustClick()
		waitTitle(t, page, "Get started")
		// Opened over Settings, Continue still leads to Compose.
		page.MustElement(`[data-testid=welcome-continue]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[role=tab][data-view=tabs]`).MustClick()
		waitTitle(t, page, "Tabs")
	})

	t.Run("with a run recorded the app opens on its normal view, without the badge", func(t *testing.T) {
		id := page.MustEval(`async () => (await window.go.app.Runs.Start({kind: 'ask', site: 'claude', prompt: 'Which ferry leaves first?'})).id`).Str()
		state := page.Timeout(90*time.Second).MustEval(`async (id) => {
			for (;;) {
				const r = await window.go.app.Runs.Get(id);
				if (r.ended) return r.state;
				await new Promise((ok) => setTimeout(ok, 200));
			}
		}`, id).Str()
		if state != "done" {
			t.Fatalf("the run ended %s", state)
		}
		app.stop(t)
		// Not dismissed: only the recorded use keeps the view away.
		writeHeadfulSettings(t, dir, srv, nil)
		again := startDevApp(t, bin, dir)
		page2 := openShell(t, b, again.url).Timeout(time.Minute)
		page2.MustElement(`[data-testid=open-welcome][data-loaded=true]`)
		if title := viewTitle(t, page2); title != "Tabs" {
			t.Errorf("the app opened on %q, want Tabs", title)
		}
		if n := page2.MustEval(`() => document.querySelectorAll('[data-testid=welcome-badge]').length`).Int(); n != 0 {
			t.Error("the badge shows with Claude logged in")
		}
		w := page2.MustEval(`async () => await window.go.app.Welcome.State()`)
		if w.Get("show").Bool() || !w.Get("used").Bool() || w.Get("dismissed").Bool() {
			t.Errorf("welcome state %s", w.JSON("", ""))
		}
	})
}
