package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/browsertest"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestAJobsDeadlineHoldsBeforeItsRunStarts: the owner's browser that the
// job must first reach (here a DevTools port that takes the connection and
// never answers, as a browser that stopped responding) counts against the
// job's timeout: the job ends with the timeout error, not when someone
// cancels it.
func TestAJobsDeadlineHoldsBeforeItsRunStarts(t *testing.T) {
	endpoint := browsertest.SilentEndpoint(t)
	h := openTestRunner(t, t.TempDir(), Options{Source: func(ctx context.Context) (*browser.Browser, error) {
		return browser.Attach(ctx, endpoint)
	}})
	ctx := context.Background()
	j, err := h.CreateJob(ctx, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hello", TimeoutSeconds: 1}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events, stop := h.Watch(j.ID)
	defer stop()
	hang := time.After(time.Minute) // only a hang gets there
	for j.Detail == nil || !j.Detail.Ended {
		if j, err = h.GetJob(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		if j.Detail != nil && j.Detail.Ended {
			break
		}
		select {
		case <-events:
		case <-hang:
			t.Fatalf("the job is still %s a minute after its deadline", j.State)
		}
	}
	if !errs.Has(j.Error, errs.Timeout) {
		t.Fatalf("the job ended %s with %v, want the timeout", j.State, j.Error)
	}
}
