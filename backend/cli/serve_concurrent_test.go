package cli

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestTwoAsksAtOnceThroughServe is the report of issue 14 (point 6): with
// `ferry serve --browser-url` and the user's ChatGPT tab open, two `ferry
// ask` at once both answer (the second used to fail with login_required
// after the first detached from the tab they shared), each prompt sent
// once, each in its own tab.
func TestTwoAsksAtOnceThroughServe(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(sim.WithPace(4, 25*time.Millisecond), sim.WithRateLimitLock(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dd := t.TempDir()
	startServe(t, dd, "--browser-url", h.Browser.Endpoint())
	d := "--data-dir=" + dd
	if r := ferry(t, nil, "open", "chatgpt", d); r.code != 0 {
		t.Fatalf("open: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	prompts := []string{"Tell me about the morning ferry", "Tell me about the evening ferry"}
	results := make([]result, len(prompts))
	var wg sync.WaitGroup
	for i, p := range prompts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = ferry(t, nil, "ask", "--site", "chatgpt", "--json", "--timeout", "45s", d, p)
		}()
	}
	wg.Wait()
	tabs := map[string]bool{}
	for i, r := range results {
		var res provider.Result
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
			t.Fatalf("ask %d: exit %d\nstdout %s\nstderr %s", i+1, r.code, r.stdout, r.stderr)
		}
		if res.Answer != providertest.NormalAnswer(prompts[i]) {
			t.Fatalf("ask %d answered %q", i+1, res.Answer)
		}
		tabs[res.Routing.ControlledTabID] = true
		n := 0
		for _, s := range h.Server.Submissions(sim.ChatGPT) {
			if s.Prompt == prompts[i] {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("the prompt %q reached ChatGPT %d times, want once", prompts[i], n)
		}
	}
	if len(tabs) != 2 {
		t.Fatalf("both asks ran in one tab: %v", tabs)
	}
}
