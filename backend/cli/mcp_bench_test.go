package cli

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
)

// BenchmarkMCPOverhead measures what the MCP path adds to an ask: the time
// of an `ask` tool call (wait_s 120, the answer in the result) on a running
// `ferry mcp` against the time of a `ferry ask` process doing the same
// work, all attached with --browser-url to the same headless Chromium on
// the simulator, taken in turn in every op so that they see the same
// machine. The same work is a follow-up in a conversation whose tab is
// open: the tool call continues its previous run (session), `ferry ask`
// pins the tab its previous run used (--tab).
//
//   - mcp-p50-ms: the tool call on `ferry mcp`, which owns its data
//     directory and works through its own gateway (as through the app's);
//     the agent is set to auto-approve, so no approval waits;
//   - ask-p50-ms: `ferry ask` on that same data directory, so through the
//     same owner's gateway (the path an ask takes while the app runs);
//   - solo-ask-p50-ms: `ferry ask` on a data directory no owner holds (the
//     run in its own process);
//   - mcp-new-chat-p50-ms: a tool call without session, which an agent
//     asks in a new chat (its own free tab navigated to the site's
//     new-chat page), for comparison.
//
// overhead-ms is mcp minus ask (goal: at most 50 ms); solo-overhead-ms is
// mcp minus solo-ask, which adds the gateway's job path to the MCP layer.
//
//	go test ./backend/cli -run '^$' -bench MCPOverhead -benchtime 15x
func BenchmarkMCPOverhead(b *testing.B) {
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	soloDir, mcpDir := b.TempDir(), b.TempDir()
	p := startMCP(b, mcpDir, "bench", "--browser-url", url)
	p.call(b, "sites", map[string]any{}, nil)
	autoApprove(b, mcpDir, "bench")
	// The new chats are another agent's, so that they never take the tab
	// of the conversation the follow-ups continue.
	pn := startMCP(b, mcpDir, "bench-new", "--browser-url", url)
	pn.call(b, "sites", map[string]any{}, nil)
	autoApprove(b, mcpDir, "bench-new")

	// Each ferry ask pins, with --tab, the tab its first run opened (the
	// agent's own tab is open beside it).
	tabs := map[string][]string{}
	askOnce := func(dataDir, prompt string) time.Duration {
		tab, ok := tabs[dataDir]
		if !ok {
			tab = []string{"--site", "chatgpt"}
		}
		start := time.Now()
		cmd := exec.Command(binary, append(append([]string{"ask", "--json", "--browser-url", url, "--data-dir", dataDir, "--timeout", "60s"}, tab...), prompt)...)
		cmd.Env = hermeticEnv(b)
		out, err := cmd.Output()
		took := time.Since(start)
		var res provider.Result
		if err != nil || json.Unmarshal(out, &res) != nil || res.Answer != providertest.NormalAnswer(prompt) {
			b.Fatalf("ferry ask: %v\n%s", err, out)
		}
		tabs[dataDir] = []string{"--tab", res.Routing.ControlledTabID}
		return took
	}
	// last is the run the follow-ups continue.
	last := ""
	mcpOnce := func(prompt string, follow bool) time.Duration {
		args := map[string]any{"site": "chatgpt", "prompt": prompt, "wait_s": 120}
		if follow && last != "" {
			args = map[string]any{"session": last, "prompt": prompt, "wait_s": 120}
		}
		start := time.Now()
		var got mcpJob
		if follow {
			p.call(b, "ask", args, &got)
		} else {
			pn.call(b, "ask", args, &got)
		}
		took := time.Since(start)
		if got.State != "done" || got.Answer != providertest.NormalAnswer(prompt) {
			b.Fatalf("mcp ask: %+v", got)
		}
		if follow {
			last = got.Session
		}
		return took
	}
	// One of each first: the tabs they open and the conversations they
	// start are not what the ops measure.
	askOnce(soloDir, "warm up solo")
	askOnce(mcpDir, "warm up ask")
	mcpOnce("warm up mcp", true)
	mcpOnce("warm up mcp new chat", false)

	var solo, asks, mcps, fresh []time.Duration
	for i := 0; b.Loop(); i++ {
		prompt := fmt.Sprintf("Benchmark question %d", i)
		runs := []func(){
			func() { solo = append(solo, askOnce(soloDir, prompt)) },
			func() { asks = append(asks, askOnce(mcpDir, prompt)) },
			func() { mcps = append(mcps, mcpOnce(prompt, true)) },
			func() { fresh = append(fresh, mcpOnce(prompt, false)) },
		}
		for k := range runs {
			runs[(i+k)%len(runs)]()
		}
	}
	s, a, m, f := percentile(solo, 50), percentile(asks, 50), percentile(mcps, 50), percentile(fresh, 50)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(m), "mcp-p50-ms")
	b.ReportMetric(ms(a), "ask-p50-ms")
	b.ReportMetric(ms(s), "solo-ask-p50-ms")
	b.ReportMetric(ms(f), "mcp-new-chat-p50-ms")
	b.ReportMetric(ms(m-a), "overhead-ms")
	b.ReportMetric(ms(m-s), "solo-overhead-ms")
}
