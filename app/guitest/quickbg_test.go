//go:build gui

package guitest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// displayWithWM starts an X display of the test's own with a window
// manager on it (openbox: minimizing a window needs one, and the shared
// Xvfb of the other tests has none) and returns its DISPLAY value.
func displayWithWM(t *testing.T) string {
	t.Helper()
	for _, bin := range []string{"Xvfb", "openbox"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is missing: run `make setup` (scripts/setup-system.sh installs it)", bin)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	x.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := x.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { _ = x.Process.Kill(); _ = x.Wait() })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	var display string
	select {
	case n := <-line:
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Xvfb reported the display %q", n)
		}
		display = ":" + n
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not report its display within 30 s")
	}
	wm := exec.Command("openbox", "--sm-disable")
	wm.Env = append(os.Environ(), "DISPLAY="+display)
	wm.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := wm.Start(); err != nil {
		t.Fatalf("start openbox: %v", err)
	}
	t.Cleanup(func() { _ = wm.Process.Kill(); _ = wm.Wait() })
	// openbox owns the screen once it answers for the root window's
	// supporting WM check.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		out, _ := exec.CommandContext(ctx, "xprop", "-display", display, "-root", "_NET_SUPPORTING_WM_CHECK").CombinedOutput()
		if strings.Contains(string(out), "window id") {
			return display
		}
		if ctx.Err() != nil {
			t.Fatalf("openbox did not take the display: %s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// xdotoolOn runs xdotool on display.
func xdotoolOn(ctx context.Context, display string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) > 0 {
		return "", fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	// search exits 1 when nothing matches: that is an empty answer.
	return strings.TrimSpace(string(out)), nil
}

// positionOn returns where the window id is on display.
func positionOn(t *testing.T, display, id string) (int, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := xdotoolOn(ctx, display, "getwindowgeometry", "--shell", id)
	if err != nil {
		t.Fatal(err)
	}
	var x, y int
	for _, f := range strings.Fields(out) {
		if v, ok := strings.CutPrefix(f, "X="); ok {
			x, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(f, "Y="); ok {
			y, _ = strconv.Atoi(v)
		}
	}
	return x, y
}

// TestQuickPromptStartsTheBrowserMinimized: on a desktop with a window
// manager, the quick prompt's first send starts Ferry's (headful) browser,
// and the browser's window does not come up over what the user is doing:
// it is minimized at once, the answer shows in the box, and Esc closes the
// box with Ferry's main window back where it was (issue 19, point 2).
func TestQuickPromptStartsTheBrowserMinimized(t *testing.T) {
	requireDisplay(t)
	requireFrontendBuilt(t)
	display := displayWithWM(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	srv := sim.New()
	if err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	settings, err := json.Marshal(map[string]any{
		"theme":   "light",
		"browser": map[string]any{"binary": "/usr/bin/chromium", "headless": false, "extraArgs": srv.ChromiumFlags()},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "settings.json"), settings, 0o600); err != nil {
		t.Fatal(err)
	}
	app := startDevAppEnv(t, bin, dir, []string{"DISPLAY=" + display})
	page := openShell(t, b, app.url)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	var wid string
	for wid == "" {
		out, err := xdotoolOn(ctx, display, "search", "--onlyvisible", "--name", "^Ferry$")
		if err != nil {
			t.Fatal(err)
		}
		wid, _, _ = strings.Cut(out, "\n")
		if ctx.Err() != nil {
			t.Fatal("Ferry's window never showed on the display with a window manager")
		}
		time.Sleep(100 * time.Millisecond)
	}
	homeX, homeY := positionOn(t, display, wid)
	if out, _ := xdotoolOn(ctx, display, "search", "--class", "chromium"); out != "" {
		t.Fatalf("a browser window is up before the quick prompt sent anything: %q", out)
	}

	page.MustEval(`() => window.go.app.Quick.Open()`)
	box := page.MustElement(`[data-testid=quick-box]`)
	box.MustInput("write a haiku about river ferries")
	box.MustClick()
	page.KeyActions().Type(input.Enter).MustDo()
	if err := page.Timeout(90 * time.Second).Wait(rod.Eval(`() => {
		const a = document.querySelector('[data-testid=quick-answer]');
		return a && a.dataset.ended === 'true' && a.dataset.state === 'done';
	}`)); err != nil {
		t.Fatalf("no answer in the quick prompt: %v (%s)", err, page.MustEval(`() => document.querySelector('[data-testid=quick-prompt]')?.innerText ?? 'no box'`).Str())
	}

	t.Run("the browser the quick prompt started is minimized, not on top", func(t *testing.T) {
		all, _ := xdotoolOn(ctx, display, "search", "--class", "chromium")
		if all == "" {
			t.Fatal("the quick prompt's run left no browser window on the display: was the browser started headful?")
		}
		if shown, _ := xdotoolOn(ctx, display, "search", "--onlyvisible", "--class", "chromium"); shown != "" {
			t.Errorf("the browser's windows %q are shown over the desktop", shown)
		}
		ab := appBrowser(t, page)
		pages, err := ab.Pages()
		if err != nil || len(pages) == 0 {
			t.Fatalf("the app's browser lists tabs %v: %v", pages, err)
		}
		for _, p := range pages {
			w, err := proto.BrowserGetWindowForTarget{TargetID: p.TargetID}.Call(ab)
			if err != nil {
				t.Fatal(err)
			}
			if w.Bounds.WindowState != proto.BrowserWindowStateMinimized {
				t.Errorf("the window of tab %s is %s, want minimized", p.TargetID, w.Bounds.WindowState)
			}
		}
	})

	t.Run("Esc closes the box and the main window is where it was", func(t *testing.T) {
		page.MustElement(`[data-testid=quick-box]`).MustClick()
		page.KeyActions().Type(input.Escape).MustDo()
		page.MustWait(`() => !document.querySelector('[data-testid=quick-prompt]')`)
		deadline := time.Now().Add(10 * time.Second)
		for {
			x, y := positionOn(t, display, wid)
			if x == homeX && y == homeY {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the main window is at %d,%d, want %d,%d where it was", x, y, homeX, homeY)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
