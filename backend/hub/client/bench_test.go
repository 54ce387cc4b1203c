package client_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

// BenchmarkLoopback50Clients100Requests is the figure of issue 8: 50
// concurrent paired clients each send 100 requests (10 job creations with a
// message id, 90 reads) to a real hub on loopback, within the default rate
// limit of 100 messages per 10 s per client. Any error fails the run.
func BenchmarkLoopback50Clients100Requests(b *testing.B) {
	const clients, perClient = 50, 100
	srv, be := startHub(b, hubPath(b))
	ctx := context.Background()
	var all []time.Duration
	var errCount atomic.Int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cs := make([]*client.Client, clients)
		for c := range cs {
			_, token := be.register(b, fmt.Sprintf("bench %d-%d", i, c))
			cs[c] = client.New(client.NewEndpoint(srv.Port(), token))
		}
		lat := make([][]time.Duration, clients)
		b.StartTimer()
		var wg sync.WaitGroup
		for c := range cs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var jobID string
				for r := 0; r < perClient; r++ {
					start := time.Now()
					var err error
					switch {
					case r%10 == 0:
						var j hub.Job
						j, err = cs[c].CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Prompt: "bench"})
						jobID = j.ID
					case r%10 == 1:
						_, err = cs[c].GetJob(ctx, jobID)
					case r%2 == 0:
						_, err = cs[c].ListSessions(ctx, hub.SessionQuery{Limit: 20})
					default:
						_, err = cs[c].ListTabs(ctx)
					}
					lat[c] = append(lat[c], time.Since(start))
					if err != nil {
						errCount.Add(1)
						b.Errorf("client %d request %d: %v", c, r, err)
					}
				}
			}()
		}
		wg.Wait()
		b.StopTimer()
		for _, l := range lat {
			all = append(all, l...)
		}
		b.StartTimer()
	}
	b.StopTimer()
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) float64 {
		return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(errCount.Load()), "errors")
	b.ReportMetric(float64(len(all))/float64(b.N), "requests/op")
}
