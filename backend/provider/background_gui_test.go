//go:build gui

// This test needs a display: it drives a headful Chromium, where a tab in
// the background behaves differently from a headless one. Run it under Xvfb:
//
//	xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- go test -tags gui ./backend/provider/ -run Headful

package provider_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/provider"
	_ "github.com/ferrydesk/ferry/backend/provider/all"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// frontRecorder makes the user's tab record any input that reaches it and
// any change of its visibility.
const frontRecorder = `() => {
  window.seen = []; window.visibility = [];
  document.addEventListener('visibilitychange', () => window.visibility.push(document.visibilityState));
  for (const type of ['mousedown', 'click', 'keydown', 'beforeinput'])
    document.addEventListener(type, () => window.seen.push(type), true);
}`

type tabState struct {
	State      string   `json:"state"`
	Seen       []string `json:"seen"`
	Visibility []string `json:"visibility"`
}

func stateOf(t *testing.T, ctx context.Context, p *browser.Page) tabState {
	t.Helper()
	var s tabState
	if err := p.EvalInto(ctx, &s, `() => ({state: document.visibilityState, seen: window.seen || [], visibility: window.visibility || []})`); err != nil {
		t.Fatal(err)
	}
	return s
}

// Ferry's browser is headful by default and its tabs sit behind the one
// the user looks at. In such a tab every site's adapter composes and sends
// a prompt that the site receives exactly once and answers, while the
// user's tab stays the visible one and receives no input.
func TestHeadfulAskInABackgroundTabSendsOnceAndLeavesTheFrontTabInFront(t *testing.T) {
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
	if _, err := front.Eval(ctx, frontRecorder); err != nil {
		t.Fatal(err)
	}
	reg := site.Builtin()

	for _, id := range sim.Sites() {
		t.Run(id+" is asked in a background tab and answers once", func(t *testing.T) {
			st, err := reg.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			back, err := b.OpenTab(ctx, "about:blank")
			if err != nil {
				t.Fatal(err)
			}
			defer back.Close(context.Background())
			if err := back.Navigate(ctx, sim.URL(id, "/")); err != nil {
				t.Fatal(err)
			}
			if f, k := stateOf(t, ctx, front).State, stateOf(t, ctx, back).State; f != "visible" || k != "hidden" {
				t.Fatalf("before: the user's tab is %s and Ferry's %s; want visible and hidden", f, k)
			}
			a, err := provider.New(provider.Env{Page: back, Site: st, Sites: reg})
			if err != nil {
				t.Fatal(err)
			}
			before := srv.SubmissionCount(id)
			prompt := "Which ferry leaves from the back of " + st.Name + "?"
			res, err := providertest.Ask(t, ctx, a, providertest.Request{Prompt: prompt})
			if err != nil {
				t.Fatalf("ask in a background tab: %v", err)
			}
			if res.Answer != providertest.NormalAnswer(prompt) {
				t.Fatalf("answer %q, want the simulator's answer to the prompt", res.Answer)
			}
			if n := srv.SubmissionCount(id) - before; n != 1 {
				t.Fatalf("the simulator counted %d submissions, want exactly 1", n)
			}
			subs := srv.Submissions(id)
			if got := strings.TrimSpace(subs[len(subs)-1].Prompt); got != prompt {
				t.Fatalf("the simulator received %q", got)
			}
			fs, ks := stateOf(t, ctx, front), stateOf(t, ctx, back)
			if fs.State != "visible" || ks.State != "hidden" {
				t.Fatalf("after: the user's tab is %s and Ferry's %s; want visible and hidden", fs.State, ks.State)
			}
			if len(fs.Seen) != 0 || len(fs.Visibility) != 0 {
				t.Fatalf("the user's tab received input %v or visibility changes %v", fs.Seen, fs.Visibility)
			}
			t.Logf("%s: compose %d ms, submit %d ms, wait %d ms (%s)", id, res.Timings.ComposeMS, res.Timings.SubmitMS, res.Timings.WaitMS, res.Transport.CompleteReason)
		})
	}
}
