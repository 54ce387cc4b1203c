//go:build gui

package guitest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

const productionTags = "desktop,production,webkit2_41"

var readyAfter = regexp.MustCompile(`msg="frontend ready" after=(\S+)`)

// TestDesktopWindow runs the production binary as a user would: the window
// opens with the title Ferry, the mounted frontend reports ready through the
// bound System.FrontendReady call, it paints a real UI in the theme the
// settings ask for, and Ctrl+Q closes it with exit status 0.
func TestDesktopWindow(t *testing.T) {
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, productionTags)

	cases := []struct {
		name  string
		theme string // "" leaves the settings file absent (defaults)
		dark  bool
	}{
		{name: "a fresh data directory opens the light shell", theme: "", dark: false},
		{name: "the dark theme setting paints the window dark", theme: "dark", dark: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.theme != "" {
				writeSettings(t, dir, c.theme)
			}
			p := startApp(t, bin, isolatedEnv(dir))
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second) // only a hang reaches it
			defer cancel()

			line, err := p.waitLine(ctx, `msg="frontend ready"`)
			if err != nil {
				t.Fatal(err)
			}
			if m := readyAfter.FindStringSubmatch(line); m != nil {
				t.Logf("process start to frontend ready: %s", m[1])
			}

			wid, err := waitWindow(ctx, "Ferry")
			if err != nil {
				t.Fatal(err)
			}
			name, err := xdotool(ctx, "getwindowname", wid)
			if err != nil || name != "Ferry" {
				t.Fatalf("window %s is named %q (%v), want Ferry", wid, name, err)
			}

			// The frames after ready reach the X server when they do (the
			// first painted one may still be light with the dark theme set):
			// take screenshots until one is painted (not one colour) in the
			// theme's lightness. Only a hang ends the polling otherwise,
			// and the checks below then fail.
			shot := filepath.Join(t.TempDir(), "ferry-window-"+map[bool]string{false: "light", true: "dark"}[c.dark]+".png")
			var st pixelStats
			for {
				if err := screenshot(ctx, wid, shot); err != nil {
					t.Fatal(err)
				}
				if st, err = imageStats(shot); err != nil {
					t.Fatal(err)
				}
				themed := c.dark && st.MeanLuma <= 90 || !c.dark && st.MeanLuma >= 170
				if st.Colours >= 64 && st.StdLuma >= 4 && themed || ctx.Err() != nil {
					break
				}
				select {
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
			}
			t.Logf("screenshot %s: %dx%d, mean luma %.0f, stddev %.1f, %d colours", shot, st.Width, st.Height, st.MeanLuma, st.StdLuma, st.Colours)
			keepScreenshot(t, shot)
			if st.Width < 1000 || st.Height < 650 {
				t.Errorf("window is %dx%d, want about the default 1100x720", st.Width, st.Height)
			}
			// A blank or unpainted window is one colour; the shell has text,
			// icons, a sidebar and borders.
			if st.Colours < 64 || st.StdLuma < 4 {
				t.Errorf("screenshot looks blank: %d colours, luma stddev %.1f", st.Colours, st.StdLuma)
			}
			if c.dark && st.MeanLuma > 90 {
				t.Errorf("dark theme: mean luma %.0f, want a dark window (< 90)", st.MeanLuma)
			}
			if !c.dark && st.MeanLuma < 170 {
				t.Errorf("light theme: mean luma %.0f, want a light window (> 170)", st.MeanLuma)
			}

			// Close it the way a keyboard user does.
			if _, err := xdotool(ctx, "windowfocus", "--sync", wid); err != nil {
				t.Fatal(err)
			}
			if _, err := xdotool(ctx, "key", "--clearmodifiers", "ctrl+q"); err != nil {
				t.Fatal(err)
			}
			code, err := p.waitExit(closeWithin)
			if err != nil {
				t.Fatal(err)
			}
			if code != 0 {
				t.Fatalf("exit status %d after Ctrl+Q, want 0", code)
			}
			if !strings.Contains(p.Log(), `msg="shut down"`) {
				t.Errorf("the app exited without its shutdown (store not closed?)")
			}
		})
	}
}

// TestWithoutDisplay: started with no display the binary stops at once,
// non-zero, naming the two ways forward, and never reaches GTK.
func TestWithoutDisplay(t *testing.T) {
	bin := buildApp(t, productionTags)
	dir := t.TempDir()
	var env []string
	for _, kv := range isolatedEnv(dir) {
		k, _, _ := strings.Cut(kv, "=")
		if k == "DISPLAY" || k == "WAYLAND_DISPLAY" {
			continue
		}
		env = append(env, kv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)

	var ee *exec.ExitError
	if err == nil {
		t.Fatalf("exit status 0 without a display; output:\n%s", out)
	}
	if !errors.As(err, &ee) || ee.ExitCode() <= 0 {
		t.Fatalf("want a non-zero exit, got %v; output:\n%s", err, out)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("killed by %v, want a clean exit", ws.Signal())
	}
	if elapsed > 3*time.Second {
		t.Errorf("took %s to give up, want at once", elapsed)
	}
	for _, want := range []string{"no_display", "xvfb-run -a make run", "`ferry`"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output does not name %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "Gtk") {
		t.Errorf("GTK was reached:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Errorf("the data directory was created although the app could not open")
	}
}
