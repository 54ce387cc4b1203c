//go:build gui

package guitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

var views = []struct{ id, title string }{
	{"tabs", "Tabs"}, {"compose", "Compose"}, {"history", "History"}, {"artifacts", "Artifacts"}, {"settings", "Settings"},
}

// TestShell drives the real frontend against the real Go backend: the dev
// binary serves both, headless Chromium clicks and types.
func TestShell(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	shots := t.TempDir()

	dir := t.TempDir()
	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)

	t.Run("clicking each sidebar item shows its view", func(t *testing.T) {
		for _, v := range views {
			page.MustElement(`[role=tab][data-view=` + v.id + `]`).MustClick()
			waitTitle(t, page, v.title)
			if sel := page.MustElement(`[role=tab][data-view=` + v.id + `]`).MustAttribute("aria-selected"); sel == nil || *sel != "true" {
				t.Errorf("%s: aria-selected is %v after the click", v.id, sel)
			}
			if got := page.MustElement(`[role=tabpanel]`).MustAttribute("data-view"); got == nil || *got != v.id {
				t.Errorf("%s: the panel shows %v", v.id, got)
			}
		}
	})

	t.Run("Ctrl+1 to Ctrl+5 reach every view", func(t *testing.T) {
		for i, v := range []rune{'5', '4', '3', '2', '1'} {
			page.KeyActions().Press(input.ControlLeft).Type(input.Key(v)).MustDo()
			waitTitle(t, page, views[4-i].title)
		}
	})

	t.Run("arrow keys move focus in the sidebar and Enter opens the view", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=tabs]`).MustClick()
		waitTitle(t, page, "Tabs")
		focused := func() string {
			return page.MustEval(`() => document.activeElement?.dataset?.view ?? ''`).Str()
		}
		page.KeyActions().Type(input.ArrowDown).MustDo()
		if f := focused(); f != "compose" {
			t.Fatalf("ArrowDown focused %q, want compose", f)
		}
		if title := viewTitle(t, page); title != "Tabs" {
			t.Errorf("moving focus changed the view to %q; it should wait for Enter", title)
		}
		page.KeyActions().Type(input.Enter).MustDo()
		waitTitle(t, page, "Compose")
		savePageShot(t, page, shots, "ferry-keyboard-focus.png")
		page.KeyActions().Type(input.End).MustDo()
		page.KeyActions().Type(input.Space).MustDo()
		waitTitle(t, page, "Settings")
		page.KeyActions().Type(input.ArrowDown, input.Enter).MustDo() // wraps to the first
		waitTitle(t, page, "Tabs")
		// Only the selected item is a tab stop, so Tab leaves the list.
		stops := page.MustEval(`() => [...document.querySelectorAll('[role=tab]')].filter(e => e.tabIndex === 0).length`).Int()
		if stops != 1 {
			t.Errorf("%d sidebar items are tab stops, want 1 (roving focus)", stops)
		}
	})

	t.Run("Tabs and Compose show the browser and the composer, not placeholders", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=tabs]`).MustClick()
		page.MustElement(`[data-testid=browser-state][data-status=not_started]`)
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		page.MustElement(`[data-testid=prompt]`)
		if n := page.MustEval(`() => document.querySelectorAll('[data-testid=empty-state]').length`).Int(); n != 0 {
			t.Errorf("compose still shows %d empty states", n)
		}
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		savePageShot(t, page, shots, "ferry-history-light.png")
	})

	t.Run("settings show the data directory and the doctor's checks", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=settings]`).MustClick()
		waitTitle(t, page, "Settings")
		dataDir := page.MustElement(`[data-testid=data-dir]`).MustText()
		if dataDir != filepath.Join(dir, "data") {
			t.Errorf("data directory shown as %q, want %q", dataDir, filepath.Join(dir, "data"))
		}
		if f := page.MustElement(`[data-testid=settings-file]`).MustText(); f != filepath.Join(dir, "data", "settings.json") {
			t.Errorf("settings file shown as %q", f)
		}
		page.MustWait(`() => document.querySelectorAll('[data-testid=doctor] [data-check]').length >= 3`)
		ids := page.MustEval(`() => [...document.querySelectorAll('[data-testid=doctor] [data-check]')].map(e => e.dataset.check + ':' + e.dataset.status).join(' ')`).Str()
		for _, id := range []string{"browser:", "datadir:ok", "store:ok"} {
			if !strings.Contains(ids, id) {
				t.Errorf("doctor checks %q lack %q", ids, id)
			}
		}
		savePageShot(t, page, shots, "ferry-settings-light.png")
		page.MustElement(`[data-testid=doctor]`).MustScrollIntoView()
		savePageShot(t, page, shots, "ferry-settings-system.png")
		page.MustElement(`[data-testid=theme-picker]`).MustScrollIntoView()
	})

	t.Run("the theme follows the setting and, for system, the OS", func(t *testing.T) {
		theme := func() string { return page.MustEval(`() => document.documentElement.dataset.theme`).Str() }
		pick := func(value string) {
			page.MustElement(`[data-testid=theme-picker] input[value=` + value + `]`).MustClick()
			page.MustWait(`(v) => document.querySelector('[data-testid=theme-picker] input[value=' + v + ']').checked && !document.querySelector('[data-testid=theme-picker] input').disabled`, value)
		}
		pick("dark")
		if got := theme(); got != "dark" {
			t.Fatalf("painted %q after choosing dark", got)
		}
		saved := evalJSON(t, page, `() => window.go.app.Settings.Get()`)
		if saved["theme"] != "dark" {
			t.Errorf("settings file holds theme %v after choosing dark", saved["theme"])
		}
		// The save wrote the first settings file: System says so without
		// another "Check again".
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => /^valid: /.test(document.querySelector('[data-testid=doctor] [data-check=settings] .detail')?.textContent ?? '')`)); err != nil {
			t.Errorf("after the save System still reads the check from before it: %v", err)
		}
		savePageShot(t, page, shots, "ferry-settings-dark.png")

		pick("system")
		if got := theme(); got != "light" {
			t.Errorf("system with a light OS painted %q", got)
		}
		if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}).Call(page); err != nil {
			t.Fatal(err)
		}
		page.MustWait(`() => document.documentElement.dataset.theme === 'dark'`)
		if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-color-scheme", Value: "light"}}}).Call(page); err != nil {
			t.Fatal(err)
		}
		page.MustWait(`() => document.documentElement.dataset.theme === 'light'`)
	})

	t.Run("the pairing code says in the user's words what the agent does with it", func(t *testing.T) {
		page.MustElement(`[data-testid=pair]`).MustClick()
		how := page.MustElement(`[data-testid=pairing]`).MustText()
		for _, jargon := range []string{"POST", "/v1/", "pair with"} {
			if strings.Contains(how, jargon) {
				t.Errorf("the pairing text reads %q: it names %q", how, jargon)
			}
		}
		if !strings.Contains(how, "its name") || !strings.Contains(how, "key of its own") {
			t.Errorf("the pairing text reads %q: it should say the agent sends the code with its name for a key of its own", how)
		}
	})

	t.Run("a bad theme comes back as an envelope with code and hint", func(t *testing.T) {
		// Straight through the binding: the one ErrorFormatter makes the
		// rejection an envelope object.
		rej := evalJSON(t, page, `() => window.go.app.Settings.Get()
			.then(s => window.go.app.Settings.Save({...s, theme: 'purple'}))
			.then(() => ({saved: true}), e => e)`)
		if rej["saved"] == true {
			t.Fatal("the backend accepted theme purple")
		}
		if rej["code"] != "config_invalid" || str(rej["retryHint"]) == "" || !strings.Contains(str(rej["message"]), "purple") {
			t.Errorf("rejection %v, want a config_invalid envelope naming purple, with a hint", rej)
		}

		// Through the UI: a picker that sent a bad value shows the toast.
		page.MustElement(`[role=tab][data-view=settings]`).MustClick()
		page.MustEval(`() => { document.querySelector('[data-testid=theme-picker] input[value=light]').value = 'purple'; }`)
		page.MustElement(`[data-testid=theme-picker] input[value=purple]`).MustClick()
		toast := page.MustElement(`[data-testid=toast][data-code=config_invalid]`)
		if code := toast.MustElement(`[data-testid=toast-code]`).MustText(); code != "config_invalid" {
			t.Errorf("toast shows code %q", code)
		}
		if title := toast.MustElement(`.title`).MustText(); title != "Setting not saved" {
			t.Errorf("toast title %q, want Setting not saved", title)
		}
		if hint := toast.MustElement(`[data-testid=envelope-hint]`).MustText(); !strings.Contains(strings.ToLower(hint), "what to do") || !strings.Contains(hint, "nothing was saved") {
			t.Errorf("toast hint reads %q", hint)
		}
		if msg := toast.MustElement(`[data-testid=envelope-message]`).MustText(); !strings.Contains(msg, "purple") {
			t.Errorf("toast message reads %q", msg)
		}
		savePageShot(t, page, shots, "ferry-toast.png")
		still := evalJSON(t, page, `() => window.go.app.Settings.Get()`)
		if still["theme"] != "system" {
			t.Errorf("after the rejected save the theme is %v, want system unchanged", still["theme"])
		}
		toast.MustElement(`button[aria-label="Dismiss notification"]`).MustClick()
		page.MustWait(`() => !document.querySelector('[data-testid=toast][data-code=config_invalid]')`)
	})

	app.stop(t)
	if !strings.Contains(app.Log(), `msg="shut down"`) {
		t.Errorf("no clean shutdown after SIGTERM")
	}
	t.Logf("screenshots in %s", shots)
}

// TestMalformedSettings: the app still opens on a broken settings file,
// shows the config_invalid envelope, and Reset keeps the bad file as .bak.
func TestMalformedSettings(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)

	dir := t.TempDir()
	settingsFile := filepath.Join(dir, "data", "settings.json")
	bad := "{\n  \"theme\": \"dark\",\n  oops\n}\n"
	if err := os.MkdirAll(filepath.Dir(settingsFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settingsFile, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}

	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)

	toast := page.MustElement(`[data-testid=toast][data-code=config_invalid]`)
	if msg := toast.MustElement(`[data-testid=envelope-message]`).MustText(); !strings.Contains(msg, "settings.json") {
		t.Errorf("toast message %q does not name the file", msg)
	}
	page.KeyActions().Press(input.ControlLeft).Type('5').MustDo()
	waitTitle(t, page, "Settings")
	banner := page.MustElement(`[data-testid=settings-problem][data-code=config_invalid]`)
	if text := banner.MustText(); !strings.Contains(text, "line 3") && !strings.Contains(text, ":3") {
		t.Errorf("the problem does not point at line 3: %q", text)
	}
	if disabled := page.MustElement(`[data-testid=theme-picker] input[value=dark]`).MustProperty("disabled").Bool(); !disabled {
		t.Errorf("the theme picker is enabled while the settings cannot be read")
	}
	savePageShot(t, page, t.TempDir(), "ferry-config-invalid.png")

	page.MustElement(`[data-testid=reset-settings]`).MustClick()
	page.MustElement(`[data-testid=toast][data-kind=success]`)
	page.MustWait(`() => !document.querySelector('[data-testid=settings-problem]')`)

	kept, err := os.ReadFile(settingsFile + ".bak")
	if err != nil {
		matches, _ := filepath.Glob(settingsFile + "*")
		t.Fatalf("no .bak beside the settings file (%v): %v", matches, err)
	}
	if string(kept) != bad {
		t.Errorf(".bak holds %q, want the malformed file unchanged", kept)
	}
	got := evalJSON(t, page, `() => window.go.app.Settings.Get()`)
	if got["theme"] != "system" {
		t.Errorf("after the reset the theme is %v, want the default system", got["theme"])
	}
	if disabled := page.MustElement(`[data-testid=theme-picker] input[value=dark]`).MustProperty("disabled").Bool(); disabled {
		t.Errorf("the theme picker stays disabled after the reset")
	}
	if !strings.Contains(page.MustElement(`.sidebar .health`).MustText(), "Ready") {
		t.Errorf("the sidebar still reports a problem after the reset")
	}
	app.stop(t)
}
