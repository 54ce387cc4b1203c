//go:build gui

package guitest

import (
	"bufio"
	"context"
	"os"
	"os/exec"
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
	// On a loaded machine the display's number can come before the server
	// answers a client: openbox then ends at once ("Failed to open the
	// display") and is started again, within the same bound as the rest.
	var wmLog strings.Builder
	var wmDone chan struct{}
	startWM := func() {
		wmLog.Reset()
		wm := exec.Command("openbox", "--sm-disable")
		wm.Env = append(os.Environ(), "DISPLAY="+display)
		wm.Stdout, wm.Stderr = &wmLog, &wmLog
		wm.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := wm.Start(); err != nil {
			t.Fatalf("start openbox: %v", err)
		}
		done := make(chan struct{})
		wmDone = done
		go func() { _ = wm.Wait(); close(done) }()
		t.Cleanup(func() { _ = wm.Process.Kill(); <-done })
	}
	startWM()
	// openbox owns the screen once the root window names it as the
	// window manager. Each look is bounded: a server grabbed during the
	// manager's start holds a client until it lets go.
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		out, _ := exec.CommandContext(ctx, "xprop", "-display", display, "-root", "_NET_SUPPORTING_WM_CHECK").CombinedOutput()
		cancel()
		if strings.Contains(string(out), "window id") {
			return display
		}
		exited := false
		select {
		case <-wmDone:
			exited = true
		default:
		}
		switch {
		case exited && strings.Contains(wmLog.String(), "Failed to open the display"):
			startWM()
		case exited:
			t.Fatalf("openbox ended without taking the display %s: %q", display, wmLog.String())
		}
		if time.Now().After(deadline) {
			t.Fatalf("openbox did not take the display %s within 60 s: xprop said %q", display, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestQuickPromptStartsTheBrowserMinimized: on a desktop with a window
// manager, the quick prompt's first send starts Ferry's (headful) browser,
// and the browser's window does not come up over what the user is doing:
// it is minimized at once, the answer shows in the box, and Esc closes the
// box with Ferry's main window back where it was (issue 19, point 2).
func TestQuickPromptStartsTheBrowserMinimized(t *testing.T) {
	t.Parallel()
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
	writeHeadfulSettings(t, dir, srv, nil)
	app := startDevAppEnv(t, bin, dir, []string{"DISPLAY=" + display})
	page := openShell(t, b, app.url)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	home := windowShell(t, display)
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
			g := windowShell(t, display)
			if g["X"] == home["X"] && g["Y"] == home["Y"] {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the main window is at %d,%d, want %d,%d where it was", g["X"], g["Y"], home["X"], home["Y"])
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
