//go:build gui

package guitest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestSitesCheck drives Settings → Sites → "Check sites now" against the
// simulator's drifted Claude page (its send control renamed): the site is
// shown not ok with an override for the send role; "Apply this override"
// saves it to the sites setting and checks again, and the site is ok; a
// run on the same page then answers, and a check after it names the
// layout of the page's finished bar. The check sends nothing.
func TestSitesCheck(t *testing.T) {
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
	srv.SetScenario(sim.Claude, sim.Scenario{Name: sim.ScenarioDriftedDOM})
	dir := t.TempDir()
	writeBrowserSettings(t, dir, srv)
	app := startDevApp(t, bin, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	page := openShell(t, b, app.url).Context(ctx)

	// A Claude tab in the app's browser makes Claude the site in use.
	if got := page.MustEval(`async () => (await window.go.app.Tabs.Open('claude')).site`).Str(); got != sim.Claude {
		t.Fatalf("opened a tab of %q", got)
	}
	page.MustElement(`[role=tab][data-view=settings]`).MustClick()
	page.MustElement(`[data-testid=check-sites]`).MustClick()
	site := waitSite(t, page, "false")
	if v := site.MustElement(`[data-testid=site-verdict]`).MustText(); !strings.Contains(v, "resolves nowhere") {
		t.Errorf("the drifted site reads %q", v)
	}
	fix := site.MustElement(`[data-testid=site-fix][data-role=send]`)
	if txt := fix.MustText(); !strings.Contains(txt, "composer-send") {
		t.Errorf("the send fix %q does not name the renamed control", txt)
	}
	fix.MustElement(`[data-testid=apply-override]`).MustClick()
	site = waitSite(t, page, "true")
	if v := site.MustElement(`[data-testid=site-verdict]`).MustText(); v != "OK" {
		t.Errorf("after the override the site reads %q", v)
	}
	saved := page.MustEval(`async () => JSON.stringify((await window.go.app.Settings.Get()).sites)`).Str()
	if !strings.Contains(saved, "composer-send") || !strings.Contains(saved, `"claude"`) {
		t.Errorf("the sites setting is %s", saved)
	}
	if n := srv.SubmissionCount(sim.Claude); n != 0 {
		t.Errorf("the check sent %d prompt(s)", n)
	}

	// A run on the drifted page now sends through the overridden control.
	id := page.MustEval(`async () => (await window.go.app.Runs.Start({kind: 'ask', site: 'claude', prompt: 'Which ferry crosses the drift?'})).id`).Str()
	state := page.Timeout(90*time.Second).MustEval(`async (id) => {
		for (;;) {
			const r = await window.go.app.Runs.Get(id);
			if (r.ended) return r.state;
			await new Promise((ok) => setTimeout(ok, 200));
		}
	}`, id).Str()
	if state != "done" {
		t.Fatalf("the run on the drifted page ended %s", state)
	}
	if n := srv.SubmissionCount(sim.Claude); n != 1 {
		t.Errorf("%d submissions, want the run's 1", n)
	}

	// With the answer on the page the check names its finished bar's
	// layout: the drifted page's is none Ferry knows.
	page.MustElement(`[data-testid=check-sites]`).MustClick()
	layout, err := page.Timeout(90 * time.Second).Element(`[data-testid=sites-check] [data-site=claude] [data-testid=site-layout][data-aspect="finished bar"]`)
	if err != nil {
		t.Fatalf("the check names no layout of Claude's finished bar: %v\n%s", err,
			page.MustEval(`() => document.querySelector('[data-testid=sites-check]')?.innerText || ''`).Str())
	}
	if known := layout.MustAttribute("data-known"); *known != "false" || !strings.Contains(layout.MustText(), "does not know") {
		t.Errorf("the drifted finished bar reads %q (known %s)", layout.MustText(), *known)
	}
}

// waitSite waits until the check shows Claude with data-ok ok, and
// returns its row.
func waitSite(t *testing.T, page *rod.Page, ok string) *rod.Element {
	t.Helper()
	sel := `[data-testid=sites-check] [data-site=claude][data-ok=` + ok + `]`
	el, err := page.Timeout(90 * time.Second).Element(sel)
	if err != nil {
		t.Fatalf("the check never showed claude ok=%s: %v\n%s", ok, err,
			page.MustEval(`() => document.querySelector('[data-testid=sites-check]')?.innerText || ''`).Str())
	}
	return el
}
