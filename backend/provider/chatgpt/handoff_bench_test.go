package chatgpt_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// BenchmarkLongTurn asks for a 100 KiB answer through the adapter on the
// simulator, in a new chat each time, and times the run from the prompt to
// the verified answer: streamed whole on the conversation response (sse),
// and handed off to the page's socket after two chunks (handed-off:
// stream_handoff, then 100 socket items of 1,024 runes). Same text, same
// pace (an item every 2 ms); it reports the bytes Ferry read per run.
//
//	go test ./backend/provider/chatgpt -run '^$' -bench LongTurn -benchtime 10x
func BenchmarkLongTurn(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	h := providertest.Shared(b)
	h.Server.Reset()
	th := &tabHolder{}
	if err := th.open(ctx, h); err != nil {
		b.Fatal(err)
	}
	defer th.close()
	for _, tc := range []struct{ name, scenario string }{{"sse", sim.ScenarioLong}, {"handed-off", sim.ScenarioStreamHandoff}} {
		b.Run(tc.name, func(b *testing.B) {
			read := 0
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				if err := th.p.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				prompt := fmt.Sprintf("A long answer, number %d\n", i) + sim.Directive(tc.scenario, "size", "100KiB", "chunk", "1024", "interval", "2ms")
				res, err := providertest.Ask(b, ctx, th.a, providertest.Request{Prompt: prompt})
				if err != nil {
					b.Fatal(err)
				}
				tr := res.Transport
				if len(res.Answer) < 100<<10 || tr.Source != "stream" || tr.HandedOff != (tc.scenario == sim.ScenarioStreamHandoff) {
					b.Fatalf("%d bytes of answer, transport %+v", len(res.Answer), tr)
				}
				read += tr.StreamBytes
			}
			b.ReportMetric(float64(read)/float64(b.N)/1024, "KiB-read/op")
		})
	}
}
