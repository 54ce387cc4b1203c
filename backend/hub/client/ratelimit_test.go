package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestTheClientWaitsOutTheRateLimit(t *testing.T) {
	path := hubPath(t)
	srv, _ := startHub(t, path, hub.WithRateLimit(3, time.Second))
	defer closeHub(srv)
	ep := discover(t, path) // one message of the window
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	t.Run("requests over the limit wait for the window and then succeed", func(t *testing.T) {
		cl := client.New(ep)
		start := time.Now()
		for i := range 6 {
			if _, err := cl.ListTabs(ctx); err != nil {
				t.Fatalf("request %d: %v", i, err)
			}
		}
		if el := time.Since(start); el < time.Second {
			t.Fatalf("6 requests at 3 per second took %s: the limit was not applied", el)
		}
	})
	t.Run("without retries the limit comes back as hub_rate_limited", func(t *testing.T) {
		cl := client.New(ep, client.WithRetries(0))
		var err error
		for range 10 {
			if _, err = cl.ListTabs(ctx); err != nil {
				break
			}
		}
		if !errs.Has(err, errs.HubRateLimited) {
			t.Fatalf("10 quick requests at 3 per second: %v", err)
		}
	})
}

// TestAWatchOutlastsTheRateLimit: several commands of the owner share its
// rate limit (eight `ferry ask` at once); a watch whose poll the limit
// refuses, its first one included, skips it and still sees the job's end.
func TestAWatchOutlastsTheRateLimit(t *testing.T) {
	path := hubPath(t)
	srv, fake := startHub(t, path, hub.WithRateLimit(4, time.Second))
	defer closeHub(srv)
	ep := discover(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	owner := service.Owner(service.FaceCLI)
	svc := client.NewService(client.New(ep, client.WithRetries(0)))
	j, err := svc.SubmitJob(ctx, owner, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	type watched struct {
		j   service.Job
		err error
	}
	other, limited := client.New(ep, client.WithRetries(0)), 0
	// The window is spent before the watch starts: its first read is
	// refused too (the eight commands were there first).
	for limited == 0 {
		if _, err := other.ListTabs(ctx); errs.Has(err, errs.HubRateLimited) {
			limited++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan watched, 1)
	go func() {
		w, err := svc.WatchJob(ctx, owner, service.WatchRequest{ID: j.ID}, nil)
		done <- watched{w, err}
	}()
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := other.ListTabs(ctx); errs.Has(err, errs.HubRateLimited) {
			limited++
		}
	}
	if limited == 0 {
		t.Fatal("the other commands never met the limit: the test proves nothing")
	}
	fake.mu.Lock()
	ended := fake.jobs[j.ID]
	ended.State, ended.Detail = "done", &service.JobDetail{Ended: true}
	fake.jobs[j.ID] = ended
	fake.mu.Unlock()
	w := <-done
	if w.err != nil || !w.j.Ended() || w.j.State != "done" {
		t.Fatalf("WatchJob = %+v, %v; want the job's end", w.j, w.err)
	}
}
