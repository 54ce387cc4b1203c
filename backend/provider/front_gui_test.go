//go:build gui

package provider_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// focusedWindow is the X window that has the input focus.
func focusedWindow(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("xdotool", "getwindowfocus").CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool getwindowfocus: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// The site's tab is often the one the user last looked at: the active tab
// of the browser's window. There every site's adapter composes and sends a
// prompt that the site receives once and answers, and the window of the
// user's other application keeps the focus: a pointer press in the tab a
// window shows would make Chromium activate its window (issue 26, point 4).
func TestHeadfulAskInTheFrontTabAnswersOnceAndTakesNoFocus(t *testing.T) {
	if _, err := os.Stat(providertest.ChromiumBin); err != nil {
		t.Fatalf("chromium is required (apt-get install chromium): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	b, err := browser.Launch(ctx, t.TempDir(), launch.WithBinary(providertest.ChromiumBin), launch.WithArgs(srv.ChromiumFlags()...))
	if err != nil {
		t.Fatalf("launch a headful browser (is there a display?): %v", err)
	}
	defer b.Close(context.Background())
	tabs, err := b.Targets(ctx, nil)
	if err != nil || len(tabs) != 1 {
		t.Fatalf("want the browser's one first tab: %v, %+v", err, tabs)
	}
	front, err := b.Page(ctx, tabs[0].ID)
	if err != nil {
		t.Fatal(err)
	}

	// The user's other application: a plain X window that has the focus.
	other := exec.Command("xmessage", "-name", "ferry-front-test", "-geometry", "600x400+0+0", "the user's other window")
	if err := other.Start(); err != nil {
		t.Fatalf("start xmessage (x11-utils): %v", err)
	}
	defer func() { _ = other.Process.Kill(); _ = other.Wait() }()
	var win string
	for deadline := time.Now().Add(30 * time.Second); win == ""; {
		out, _ := exec.Command("xdotool", "search", "--onlyvisible", "--classname", "ferry-front-test").Output()
		if f := strings.Fields(string(out)); len(f) > 0 {
			win = f[len(f)-1]
		} else if time.Now().After(deadline) {
			t.Fatal("the test's own window did not come up within 30 s")
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	reg := site.Builtin()
	for _, id := range sim.Sites() {
		t.Run(id+" is asked in the front tab, answers once and takes no focus", func(t *testing.T) {
			st, err := reg.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			if err := front.Navigate(ctx, sim.URL(id, "/")); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("xdotool", "windowfocus", "--sync", win).CombinedOutput(); err != nil {
				t.Fatalf("focus the test's window: %v: %s", err, out)
			}
			if f := focusedWindow(t); f != win {
				t.Fatalf("before: the focus is on %s, want the test's window %s", f, win)
			}
			if s := stateOf(t, ctx, front).State; s != "visible" {
				t.Fatalf("before: the site's tab is %s, want visible (the window's active tab)", s)
			}
			a, err := provider.New(provider.Env{Page: front, Site: st, Sites: reg})
			if err != nil {
				t.Fatal(err)
			}
			before := srv.SubmissionCount(id)
			prompt := "Which ferry leaves from the front of " + st.Name + "?"
			res, err := providertest.Ask(t, ctx, a, providertest.Request{Prompt: prompt})
			if err != nil {
				t.Fatalf("ask in the front tab: %v", err)
			}
			if res.Answer != providertest.NormalAnswer(prompt) {
				t.Fatalf("answer %q, want the simulator's answer to the prompt", res.Answer)
			}
			if n := srv.SubmissionCount(id) - before; n != 1 {
				t.Fatalf("the simulator counted %d submissions, want exactly 1", n)
			}
			if f := focusedWindow(t); f != win {
				name, _ := exec.Command("xdotool", "getwindowname", f).Output()
				t.Errorf("after the ask the focus is on %s (%q), want still the test's window %s", f, strings.TrimSpace(string(name)), win)
			}
		})
	}
}
