package core

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// benchSites are the sites of BenchmarkConcurrentAsks: every built-in site,
// ChatGPT twice (its second ask gets a tab of its own).
var benchSites = []string{sim.ChatGPT, sim.ChatGPT, sim.Gemini, sim.AIStudio, sim.Grok, sim.Claude, sim.Kimi, sim.DeepSeek}

// BenchmarkConcurrentAsks submits 8 asks at once to one owner (the gateway
// over a core with the simulator's Chromium, through hub/client as `ferry
// ask` does): the seven built-in sites and a second ChatGPT ask. Each must
// be answered exactly once, in a run record of its own holding its own
// answer. It reports the wall time of the 8 (wall_ms) against the slowest
// of the same asks run one at a time (slowest_single_ms, each ask's median
// over three rounds) as x_slowest_single: 1 would be perfect overlap.
func BenchmarkConcurrentAsks(b *testing.B) {
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	o := startOwner(b, ctx, b.TempDir(), OwnerOptions{Browser: h.Browser})
	defer o.stop(b)
	ep, err := client.Discover(ctx, o.c.Paths().HubFile())
	if err != nil {
		b.Fatal(err)
	}
	remote := client.NewService(client.New(ep))
	asks := func(round string) []service.JobRequest {
		out := make([]service.JobRequest, len(benchSites))
		for i, s := range benchSites {
			out[i] = service.JobRequest{Kind: service.KindAsk, Site: s, Prompt: fmt.Sprintf("Benchmark %s ask %d on %s", round, i+1, s)}
		}
		return out
	}

	// One at a time: a first round opens each site's tab, then three
	// rounds are timed on them as the concurrent rounds find them; an
	// ask's single time is its median over the three (the machine's load
	// varies). The second ChatGPT ask runs alone in the ChatGPT tab; its
	// tab of its own is the concurrent rounds' cost, not the site's.
	singles := make([][]time.Duration, len(benchSites))
	for round := range 4 {
		for i, req := range asks(fmt.Sprintf("single %d", round)) {
			t0 := time.Now()
			jobs, errs := askAll(ctx, remote, []service.JobRequest{req})
			d := time.Since(t0)
			checkAnswered(b, h.Server, []service.JobRequest{req}, jobs, errs)
			if round > 0 {
				singles[i] = append(singles[i], d)
			}
		}
	}
	var slowest time.Duration
	for _, ds := range singles {
		slices.Sort(ds)
		slowest = max(slowest, ds[len(ds)/2])
	}

	b.ResetTimer()
	var wall time.Duration
	for n := 0; n < b.N; n++ {
		reqs := asks(fmt.Sprintf("round %d", n+1))
		t0 := time.Now()
		jobs, errs := askAll(ctx, remote, reqs)
		wall += time.Since(t0)
		checkAnswered(b, h.Server, reqs, jobs, errs)
	}
	b.StopTimer()
	mean := wall / time.Duration(b.N)
	b.ReportMetric(float64(mean.Milliseconds()), "wall_ms")
	b.ReportMetric(float64(slowest.Milliseconds()), "slowest_single_ms")
	b.ReportMetric(float64(mean)/float64(slowest), "x_slowest_single")
}
