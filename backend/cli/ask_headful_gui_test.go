//go:build gui

// This test needs a display: ferry launches its own headful Chromium, as it
// does for a user. Run it under Xvfb:
//
//	xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- go test -tags gui ./backend/cli/ -run Headful

package cli

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// The default path end to end: ferry launches its own headful browser,
// whose first tab stays in front, opens the site in a background tab, and
// the prompt is composed and sent there exactly once.
func TestHeadfulAskLaunchesItsBrowserAndSendsOnceFromABackgroundTab(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	args := []string{"ask", "--site", "chatgpt", "--chromium", providertest.ChromiumBin, "--data-dir", t.TempDir(), "--timeout", "60s", "--json"}
	for _, f := range srv.ChromiumFlags() {
		args = append(args, "--browser-arg="+f)
	}
	for i, prompt := range []string{"Which ferry leaves from a headful window?", "And the next one?"} {
		r := ferry(t, nil, append(args, prompt)...)
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		var out askJSON
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("stdout is not one JSON result (%v):\n%s", err, r.stdout)
		}
		if out.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("answer %q, want the simulator's answer to the prompt", out.Answer)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != i+1 {
			t.Fatalf("the simulator counted %d submissions after %d asks, want exactly %d", n, i+1, i+1)
		}
		// Each run launches the browser on the data directory's profile
		// and closes it: the site's tab is always a new background tab.
		if !out.Routing.TabWasCreated {
			t.Fatalf("routing %+v, want a tab Ferry opened", out.Routing)
		}
		t.Logf("ferry ask (launch, headful) took %s; compose %d ms, submit %d ms", r.took, out.Timings.ComposeMS, out.Timings.SubmitMS)
	}
}
