package chatgpt_test

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/chatgptsim"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// BenchmarkDeepResearchOverhead runs a Deep Research whose site takes a
// known time (a 1 s plan countdown and 20 s of research on the simulator)
// and reports what Ferry adds to it: the run's wall time beyond the
// site's own (typing and sending, the report read after it shows), and
// what following it costs while it runs: CPU-seconds per minute of
// research of the test process (Ferry's polling and the simulator that
// serves it) and of the browser's process tree (the page and frame reads
// Ferry asks for, besides the page's own work).
//
//	go test ./backend/provider/chatgpt -run '^$' -bench DeepResearchOverhead -benchtime 1x
func BenchmarkDeepResearchOverhead(b *testing.B) {
	const countdown, research = time.Second, 20 * time.Second
	h := providertest.Shared(b)
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		h.Server.Reset()
		th := &tabHolder{}
		if err := th.open(ctx, h); err != nil {
			b.Fatal(err)
		}
		goCPU, browserCPU := processCPU(), treeCPU(h.Browser.PID())
		start := time.Now()
		prompt := "Research the harbour trade " + sim.Directive(chatgptsim.ScenarioResearch, "countdown", countdown.String(), "research", research.String())
		res, err := providertest.Ask(b, ctx, th.a, providertest.Request{Tool: "deep-research", Prompt: prompt})
		wall := time.Since(start)
		goCPU, browserCPU = processCPU()-goCPU, treeCPU(h.Browser.PID())-browserCPU
		th.close()
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		if _, report := chatgptsim.ResearchReport(prompt); res.Answer != report {
			b.Fatalf("answer %q, want the whole report", res.Answer)
		}
		minutes := (countdown + research).Minutes()
		b.ReportMetric((wall - countdown - research).Seconds(), "s-overhead")
		b.ReportMetric(goCPU.Seconds()/minutes, "go-cpu-s/min")
		b.ReportMetric(browserCPU.Seconds()/minutes, "browser-cpu-s/min")
	}
}

// processCPU is the CPU time this process used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// treeCPU sums the CPU time of pid and all its descendants, from
// /proc/<pid>/stat (utime and stime, in clock ticks of 10 ms).
func treeCPU(pid int) time.Duration {
	ticks := map[int]int64{}
	var sum int64
	for _, p := range procTree(pid, func(p int, f []string) {
		if len(f) >= 13 {
			ut, _ := strconv.ParseInt(f[11], 10, 64)
			st, _ := strconv.ParseInt(f[12], 10, 64)
			ticks[p] = ut + st
		}
	}) {
		sum += ticks[p]
	}
	return time.Duration(sum) * 10 * time.Millisecond
}
