//go:build gui

package guitest

import (
	"context"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"
)

var demoOpenedRE = regexp.MustCompile(`msg="demo opened" pid=(\d+)`)

// TestLeavingTheDemoPutsTheWindowBack: on a desktop with a window manager,
// the user's Ferry window, moved and resized by the user, starts the demo
// (it hides while the demo's window is up); when the demo ends, the window
// comes back exactly where it was, at the size it had (issue 26, point 6).
func TestLeavingTheDemoPutsTheWindowBack(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	display := displayWithWM(t)
	bin := buildAppWithCLI(t)
	b := launchBrowser(t)
	dir := t.TempDir()
	writeSettings(t, dir, "light")
	app := startDevAppEnv(t, bin, dir, []string{"DISPLAY=" + display})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	page := openShell(t, b, app.url).Context(ctx)

	ferry, err := waitWindowOn(ctx, display, "Ferry")
	if err != nil {
		t.Fatal(err)
	}
	// The user's place for the window: not where a window manager puts a
	// new window, nor the centre.
	if _, err := xdotoolOn(ctx, display, "windowsize", "--sync", ferry, "1010", "660"); err != nil {
		t.Fatal(err)
	}
	if _, err := xdotoolOn(ctx, display, "windowmove", "--sync", ferry, "157", "93"); err != nil {
		t.Fatal(err)
	}
	var home map[string]int
	waitFor(t, 20*time.Second, "the window to take the user's place", func() bool {
		home = windowShell(t, display)
		return home["WIDTH"] == 1010 && home["HEIGHT"] == 660
	})

	page.MustEval(`() => window.go.app.System.StartDemo()`)
	if _, err := waitWindowOn(ctx, display, `Ferry \(demo\)`); err != nil {
		t.Fatalf("%v\n%s", err, app.Log())
	}
	waitFor(t, 30*time.Second, "the user's window to hide while the demo runs", func() bool {
		out, _ := xdotoolOn(ctx, display, "search", "--onlyvisible", "--name", "^Ferry$")
		return out == ""
	})
	m := demoOpenedRE.FindStringSubmatch(app.Log())
	if m == nil {
		t.Fatalf("the window did not log the demo's process:\n%s", app.Log())
	}
	pid, _ := strconv.Atoi(m[1])
	// The demo ends as its "Leave the demo" ends it: its window quits
	// normally (SIGTERM, which the demo hands to its window, is that quit).
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if _, err := app.waitLine(ctx, `msg="demo closed"`); err != nil {
		t.Fatal(err)
	}
	if _, err := waitWindowOn(ctx, display, "Ferry"); err != nil {
		t.Fatalf("the user's window did not come back: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		g := windowShell(t, display)
		if g["X"] == home["X"] && g["Y"] == home["Y"] && g["WIDTH"] == home["WIDTH"] && g["HEIGHT"] == home["HEIGHT"] {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the demo the window is %dx%d at %d,%d, want %dx%d at %d,%d where the user had it",
				g["WIDTH"], g["HEIGHT"], g["X"], g["Y"], home["WIDTH"], home["HEIGHT"], home["X"], home["Y"])
		}
		time.Sleep(100 * time.Millisecond)
	}
}
