//go:build gui

package guitest

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"
)

// buildAppWithCLI builds the dev app and the ferry CLI beside it, as the
// packages install them: the demo runs its simulator from that CLI.
func buildAppWithCLI(t *testing.T) string {
	t.Helper()
	bin := buildApp(t, devTags)
	build := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(bin), "ferry"), "./backend/cmd/ferry")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the ferry CLI: %v\n%s", err, out)
	}
	return bin
}

// chromiumBadFlags are the flags of Chromium's bad_flags_prompt.cc
// (kBadFlags) that a browser Ferry launches may carry: with any of them a
// headful window opens with the bar "You are using an unsupported
// command-line flag: … Stability and security will suffer", unless the
// browser runs with --test-type (infobar_utils.cc shows no startup bar to a
// test browser).
var chromiumBadFlags = []string{
	"host-resolver-rules", "host-rules", "ignore-certificate-errors", "ignore-certificate-errors-spki-list",
	"no-sandbox", "disable-web-security", "disable-gpu-sandbox", "disable-setuid-sandbox",
	"disable-seccomp-filter-sandbox", "single-process", "enable-blink-features", "disable-blink-features",
	"unsafely-treat-insecure-origin-as-secure", "log-net-log",
}

// browserMainCommand is the command line, one argument per element, of the
// browser (not one of its helpers) running on a profile under dir.
func browserMainCommand(t *testing.T, dir string) []string {
	t.Helper()
	for _, p := range processesNaming(dir) {
		_, line, _ := strings.Cut(p, ": ")
		args := strings.Fields(line)
		main := false
		for _, a := range args {
			if strings.HasPrefix(a, "--user-data-dir="+dir) {
				main = true
			}
			if strings.HasPrefix(a, "--type=") {
				main = false
				break
			}
		}
		if main {
			return args
		}
	}
	t.Fatalf("no browser runs on a profile under %s", dir)
	return nil
}

// TestDemoBrowserStaysBehindItsWindow: on a desktop with a window manager,
// the demo's first send starts the demo's (headful) browser; it neither
// comes up in front of the demo's window nor takes the focus, and it runs
// without a flag that makes Chromium show its "unsupported command-line
// flag" bar (issue 26, point 6).
func TestDemoBrowserStaysBehindItsWindow(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	display := displayWithWM(t)
	bin := buildAppWithCLI(t)
	b := launchBrowser(t)
	dir := t.TempDir()
	writeSettings(t, dir, "light")
	app := startDevAppEnv(t, bin, dir, []string{"DISPLAY=" + display}, "--demo")
	m := demoStartedRE.FindStringSubmatch(app.Log())
	if m == nil {
		t.Fatalf("the demo did not log where it runs:\n%s", app.Log())
	}
	demoDir := m[1]
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	page := openShell(t, b, app.url).Context(ctx)
	page.MustElement(`[data-testid=demo-banner]`)

	ferry, err := waitWindowOn(ctx, display, `Ferry \(demo\)`)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the demo's window to have the focus", func() bool {
		active := rootWindows(t, ctx, display, "_NET_ACTIVE_WINDOW")
		return len(active) == 1 && active[0] == ferry
	})
	if out, _ := xdotoolOn(ctx, display, "search", "--class", "chromium"); out != "" {
		t.Fatalf("a browser window is up before the demo sent anything: %q", out)
	}

	page.MustElement(`[role=tab][data-view=compose]`).MustClick()
	waitTitle(t, page, "Compose")
	page.MustWait(`() => [...document.querySelectorAll('[data-testid=compose-site] option')].some(o => o.value === 'chatgpt')`)
	page.MustEval(`() => { const s = document.querySelector('[data-testid=compose-site]'); s.value = 'chatgpt'; s.dispatchEvent(new Event('change', {bubbles: true})); }`)
	page.MustElement(`[data-testid=prompt]`).MustInput("Which ferry crosses the river first?")
	page.MustElement(`[data-testid=prompt]`).MustFocus()
	page.KeyActions().Press(input.ControlLeft).Type(input.Enter).MustDo()
	page.MustWait(`() => document.querySelectorAll('[data-testid=live-run]').length === 1`)
	if states := waitRunEnded(t, page, 1, 120*time.Second); states[0] != "done" {
		t.Fatalf("the demo's run ended %s: %s", states[0], page.MustElement(`[data-testid=live-run]`).MustText())
	}

	t.Run("the demo's browser runs without a flag that brings Chromium's unsupported-flag bar", func(t *testing.T) {
		args := browserMainCommand(t, demoDir)
		testType := false
		var bad []string
		for _, a := range args {
			name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
			if name == "test-type" {
				testType = true
			}
			for _, f := range chromiumBadFlags {
				if name == f {
					bad = append(bad, "--"+f)
				}
			}
		}
		if len(bad) > 0 && !testType {
			t.Errorf("the demo's browser runs with %s and without --test-type: its window shows the unsupported-flag bar\n%s",
				strings.Join(bad, " "), strings.Join(args, " "))
		}
	})

	t.Run("the demo's browser came up behind the demo's window, which kept the focus", func(t *testing.T) {
		if all, _ := xdotoolOn(ctx, display, "search", "--class", "chromium"); all == "" {
			t.Fatal("the demo's run left no browser window on the display: was its browser started headful?")
		}
		// The window manager settles the focus once the browser's window
		// is minimized; a browser left in front keeps it.
		deadline := time.Now().Add(20 * time.Second)
		for {
			active := rootWindows(t, ctx, display, "_NET_ACTIVE_WINDOW")
			shown, _ := xdotoolOn(ctx, display, "search", "--onlyvisible", "--class", "chromium")
			// A minimized window stays in the stacking list: what counts is
			// that no browser window is shown and the demo's has the focus.
			if len(active) == 1 && active[0] == ferry && shown == "" {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("after the demo's first send the active window is %v, want the demo's %s; browser windows shown over the desktop: %q",
					active, ferry, shown)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
