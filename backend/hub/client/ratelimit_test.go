package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
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
