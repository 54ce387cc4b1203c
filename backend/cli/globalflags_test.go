package cli

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// The browser flags are global, like --data-dir: given before the command
// name they reach the command. Here ferry launches its own headless browser
// from flags that all stand before `ask`.
func TestBrowserFlagsBeforeTheCommandNameLaunchTheBrowser(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	args := []string{"--headless", "--chromium", providertest.ChromiumBin, "--data-dir", t.TempDir(), "--json"}
	for _, f := range srv.ChromiumFlags() {
		args = append(args, "--browser-arg="+f)
	}
	prompt := "Which ferry leaves before its command?"
	r := ferry(t, nil, append(args, "ask", "--site", "chatgpt", "--timeout", "60s", prompt)...)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	var out askJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("stdout is not one JSON result (%v):\n%s", err, r.stdout)
	}
	if out.Answer != providertest.NormalAnswer(prompt) || !out.Routing.TabWasCreated {
		t.Fatalf("answer %q routing %+v, want the simulator's answer in a tab Ferry opened", out.Answer, out.Routing)
	}
	if n := srv.SubmissionCount(sim.ChatGPT); n != 1 {
		t.Fatalf("the simulator counted %d submissions, want 1", n)
	}
}
