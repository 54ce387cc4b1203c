package core

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// TestACancelledRunWhoseSiteWillNotStopKeepsItsTabBusy: the user cancels
// a ChatGPT answer while it streams, and ChatGPT's stop control does
// nothing. The cancelled run says ChatGPT did not stop; the next prompt to
// ChatGPT goes at once to another tab and is answered there (never typed
// into the tab still writing, never 20 s of "Finding the tab" then
// tab_busy); a prompt that names the busy tab waits for it, its queued
// event saying why, and is answered once the answer there has ended.
func TestACancelledRunWhoseSiteWillNotStopKeepsItsTabBusy(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(sim.WithPace(6, 25*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: h.Browser})
	defer o.stop(t)
	ep, err := client.Discover(ctx, o.c.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	remote := client.NewService(client.New(ep))
	me := service.Owner(service.FaceCLI)
	h.Server.RefuseStop(sim.ChatGPT, true)

	// An answer that streams and then holds before its last piece, the
	// page still writing, until the test releases it: long after the stop
	// is given up on and the next prompt is answered.
	const story = "cancelled-story"
	defer h.Server.Release(story)
	long := service.JobRequest{Kind: service.KindAsk, Site: sim.ChatGPT,
		Prompt: "Tell the long story of the ferry\n" + sim.Directive(sim.ScenarioLong, "size", "24KiB", "chunk", "200", "interval", "25ms", "hold", story)}
	j, err := remote.SubmitJob(ctx, me, long)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	cancelled := make(chan error, 1)
	first, err := remote.WatchJob(ctx, me, service.WatchRequest{ID: j.ID}, func(ev service.JobEvent) {
		if ev.Run != nil && ev.Run.Partial != nil && len(ev.Run.Partial.Text) > 300 {
			once.Do(func() {
				go func() {
					_, err := remote.CancelJob(ctx, me, service.JobRef{ID: j.ID})
					cancelled <- err
				}()
			})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-cancelled; err != nil {
		t.Fatal(err)
	}
	run := first.Detail.Run
	if run == nil || run.State != job.StateCancelled || run.Error == nil || run.Error.Evidence[job.SiteStoppedKey] != "false" {
		t.Fatalf("the cancelled run reads %+v, want cancelled saying ChatGPT did not stop", run)
	}
	if !strings.Contains(run.Error.Message, "ChatGPT did not stop writing") {
		t.Errorf("the cancelled run's message does not say ChatGPT did not stop: %q", run.Error.Message)
	}
	busy := run.TargetID

	t.Run("the next prompt goes at once to another tab and is answered", func(t *testing.T) {
		next := []service.JobRequest{{Kind: service.KindAsk, Site: sim.ChatGPT, Prompt: "A short question after the cancel"}}
		jobs, errs := askAll(ctx, remote, next)
		checkAnswered(t, h.Server, next, jobs, errs)
		if got := jobs[0].Detail.Run.TargetID; got == busy {
			t.Fatalf("the next prompt ran in tab %s, the one still writing the cancelled answer", got)
		}
	})

	t.Run("a prompt naming the busy tab waits for it, saying why, then is answered there", func(t *testing.T) {
		named := []service.JobRequest{{Kind: service.KindAsk, Site: sim.ChatGPT, TabID: busy, Prompt: "A question for the busy tab"}}
		ectx, stop := context.WithCancel(ctx)
		defer stop()
		events, err := o.hb.Events(ectx)
		if err != nil {
			t.Fatal(err)
		}
		var waits []string
		seen := make(chan struct{})
		go func() {
			defer close(seen)
			for ev := range events {
				if je, ok := ev.JobEvent(); ok && je.Run != nil && je.Run.State == service.StateQueued {
					waits = append(waits, je.Run.Note)
					// Waiting, as it should: the cancelled answer may end.
					h.Server.Release(story)
				}
			}
		}()
		jobs, errs := askAll(ctx, remote, named)
		stop()
		<-seen
		checkAnswered(t, h.Server, named, jobs, errs)
		if got := jobs[0].Detail.Run.TargetID; got != busy {
			t.Fatalf("the prompt naming tab %s ran in %s", busy, got)
		}
		want := "waiting for the ChatGPT tab, which " + tabs.StillWriting
		if len(waits) != 1 || waits[0] != want {
			t.Fatalf("queued events %q, want one: %s", waits, want)
		}
		if _, refused := h.Server.StopPresses(sim.ChatGPT); refused == 0 {
			t.Fatalf("Ferry never pressed ChatGPT's stop control")
		}
	})
}
