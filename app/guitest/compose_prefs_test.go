//go:build gui

package guitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestComposeKeepsTheUsersChoices: "Fill the prompt" over a typed draft asks
// before it replaces it, and the broadcast's sites are offered again after
// a restart (issue 19, point 10). The real frontend against the real app.
func TestComposeKeepsTheUsersChoices(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	dir := t.TempDir()
	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)
	page.MustElement(`[role=tab][data-view=compose]`).MustClick()
	waitTitle(t, page, "Compose")

	t.Run("Fill the prompt asks before it replaces a typed draft", func(t *testing.T) {
		page.MustElement(`[data-testid=template-filter]`).MustInput("fix-bug")
		page.MustElement(`[data-testid=template-list] [data-template=fix-bug]`).MustClick()
		page.MustElement(`[data-testid=template-vars] input[data-var=component]`).MustInput("the parser")
		draft := "my own words about the parser"
		page.MustElement(`[data-testid=prompt]`).MustInput(draft)
		page.MustElement(`[data-testid=template-fill]`).MustClick()
		page.MustElement(`[data-testid=fill-confirm]`)
		page.MustElement(`[data-testid=fill-keep]`).MustClick()
		page.MustWait(`() => !document.querySelector('[data-testid=fill-confirm]')`)
		if got := page.MustElement(`[data-testid=prompt]`).MustProperty("value").Str(); got != draft {
			t.Fatalf("Keep my draft changed the prompt to %q", got)
		}
		page.MustElement(`[data-testid=template-fill]`).MustClick()
		page.MustElement(`[data-testid=fill-replace]`).MustClick()
		page.MustWait(`() => (document.querySelector('[data-testid=prompt]')?.value ?? '').includes('the parser') && !document.querySelector('[data-testid=prompt]').value.includes('my own words')`)
		// Filling again over the template's own text asks nothing.
		page.MustElement(`[data-testid=template-fill]`).MustClick()
		time.Sleep(300 * time.Millisecond)
		if page.MustHas(`[data-testid=fill-confirm]`) {
			t.Error("filling over the template's own text asked to replace it")
		}
	})

	t.Run("the broadcast's sites survive a restart", func(t *testing.T) {
		page.MustElement(`[data-testid=mode-broadcast]`).MustClick()
		for _, id := range []string{"claude", "gemini"} {
			if !page.MustElement(`[data-testid=broadcast-sites] input[data-site=` + id + `]`).MustProperty("checked").Bool() {
				page.MustElement(`[data-testid=broadcast-sites] input[data-site=` + id + `]`).MustClick()
			}
		}
		want := page.MustEval(`() => [...document.querySelectorAll('[data-testid=broadcast-sites] input:checked')].map(i => i.dataset.site).sort().join()`).Str()
		settingsFile := filepath.Join(dir, "data", "settings.json")
		deadline := time.Now().Add(10 * time.Second)
		for b, _ := os.ReadFile(settingsFile); !strings.Contains(string(b), `"broadcastSites"`) || !strings.Contains(string(b), `"gemini"`); b, _ = os.ReadFile(settingsFile) {
			if time.Now().After(deadline) {
				t.Fatalf("the broadcast's sites are not kept: %s", b)
			}
			time.Sleep(100 * time.Millisecond)
		}
		app.stop(t)
		app = startDevApp(t, bin, dir)
		page = openShell(t, b, app.url)
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustElement(`[data-testid=mode-broadcast]`).MustClick()
		page.MustWait(`(want) => [...document.querySelectorAll('[data-testid=broadcast-sites] input:checked')].map(i => i.dataset.site).sort().join() === want`, want)
		app.stop(t)
	})
}
