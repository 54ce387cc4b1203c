package core

import (
	"context"
	"encoding/json"
	"fmt"
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

// askAll submits every request through svc at once, as many `ferry ask`
// would, and watches each job to its end with a listener (as `ferry ask`
// in a terminal does: the end comes over the event stream). The jobs come
// back in the order of reqs.
func askAll(ctx context.Context, svc service.Service, reqs []service.JobRequest) ([]service.Job, []error) {
	owner := service.Owner(service.FaceCLI)
	out, errs := make([]service.Job, len(reqs)), make([]error, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j, err := svc.SubmitJob(ctx, owner, req)
			if err != nil {
				errs[i] = err
				return
			}
			out[i], errs[i] = svc.WatchJob(ctx, owner, service.WatchRequest{ID: j.ID}, func(service.JobEvent) {})
		}()
	}
	wg.Wait()
	return out, errs
}

// checkAnswered fails unless every job ended done with the answer to its own
// prompt, in a run record of its own, each prompt received once by the
// simulator.
func checkAnswered(tb testing.TB, srv *sim.Server, reqs []service.JobRequest, jobs []service.Job, errs []error) {
	tb.Helper()
	runs := map[string]string{}
	for i, req := range reqs {
		j := jobs[i]
		if errs[i] != nil || j.Error != nil || j.State != string(job.StateDone) || j.Detail == nil || j.Detail.Run == nil {
			tb.Fatalf("ask %d on %s: job %+v (error %v, job error %v)", i, req.Site, j, errs[i], j.Error)
		}
		r := j.Detail.Run
		if want := providertest.NormalAnswer(req.Prompt); r.Answer != want || r.Prompt != req.Prompt || r.Site != req.Site {
			tb.Fatalf("ask %d on %s: run %s holds prompt %q answer %q, want the answer %q", i, req.Site, r.ID, r.Prompt, r.Answer, want)
		}
		if other, dup := runs[r.ID]; dup {
			tb.Fatalf("the asks %q and %q share the run %s", other, req.Prompt, r.ID)
		}
		runs[r.ID] = req.Prompt
		n := 0
		for _, sub := range srv.Submissions(req.Site) {
			if sub.Prompt == req.Prompt {
				n++
			}
		}
		if n != 1 {
			tb.Fatalf("the simulator received the prompt %q %d times, want once", req.Prompt, n)
		}
	}
}

// TestTwoAsksAtOnceThroughTheOwner: with a ChatGPT tab open, two asks on
// ChatGPT submitted at once to a real owner (the gateway over a core with the simulator's Chromium,
// through hub/client as `ferry ask` talks to it) both answer, each in its
// own tab and run record, each prompt sent once.
func TestTwoAsksAtOnceThroughTheOwner(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(sim.WithPace(4, 25*time.Millisecond), sim.WithRateLimitLock(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: h.Browser})
	defer o.stop(t)
	ep, err := client.Discover(ctx, o.c.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	remote := client.NewService(client.New(ep))
	// The user's own ChatGPT tab is open, as in a browser one works in.
	reg, err := o.c.sites()
	if err != nil {
		t.Fatal(err)
	}
	mine, _, err := o.c.leases.OpenSite(ctx, tabs.Run{}, h.Browser, reg, sim.ChatGPT)
	if err != nil {
		t.Fatal(err)
	}
	if err := mine.Detach(ctx); err != nil {
		t.Fatal(err)
	}

	reqs := make([]service.JobRequest, 2)
	for i := range reqs {
		reqs[i] = service.JobRequest{Kind: service.KindAsk, Site: sim.ChatGPT, Prompt: fmt.Sprintf("Tell me about ferry number %d", i+1)}
	}
	jobs, errs := askAll(ctx, remote, reqs)
	checkAnswered(t, h.Server, reqs, jobs, errs)
	a, b := jobs[0].Detail.Run.TargetID, jobs[1].Detail.Run.TargetID
	if a == b || (a != mine.ID() && b != mine.ID()) {
		t.Fatalf("the asks ran in the tabs %s and %s; want the user's tab %s and a tab of its own", a, b, mine.ID())
	}
	t.Run("the tab opened because the user's was busy is closed once its run is done", func(t *testing.T) {
		// Closed as its run ends; Chromium may list a closing tab a moment
		// longer on a loaded machine.
		var ids []string
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			targets, err := h.Browser.Targets(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids = ids[:0]
			for _, tg := range targets {
				if s, ok := reg.ForURL(tg.URL); ok && s.ID == sim.ChatGPT {
					ids = append(ids, tg.ID)
				}
			}
			if (len(ids) == 1 && ids[0] == mine.ID()) || time.Now().After(deadline) {
				break
			}
		}
		if len(ids) != 1 || ids[0] != mine.ID() {
			t.Fatalf("open ChatGPT tabs %v, want only the user's %s", ids, mine.ID())
		}
	})

	t.Run("two asks naming the same tab take turns, the second shown queued for it", func(t *testing.T) {
		named := make([]service.JobRequest, 2)
		for i := range named {
			named[i] = service.JobRequest{Kind: service.KindAsk, Site: sim.ChatGPT, TabID: mine.ID(), Prompt: fmt.Sprintf("Tell me about the tab's ferry %d", i+1)}
		}
		askInTurns(t, ctx, o, remote, h.Server, mine.ID(), named, "the ChatGPT tab, which another run drives")
	})

	t.Run("two asks on a site that takes one run at a time take turns in its tab", func(t *testing.T) {
		st := o.c.Settings()
		st.Sites = []json.RawMessage{json.RawMessage(`{"id":"chatgpt","oneRunAtATime":true}`)}
		if err := o.c.saveSettings(st); err != nil {
			t.Fatal(err)
		}
		defer func() {
			st.Sites = nil
			if err := o.c.saveSettings(st); err != nil {
				t.Error(err)
			}
		}()
		reqs := make([]service.JobRequest, 2)
		for i := range reqs {
			reqs[i] = service.JobRequest{Kind: service.KindAsk, Site: sim.ChatGPT, Prompt: fmt.Sprintf("Tell me about the single ferry %d", i+1)}
		}
		askInTurns(t, ctx, o, remote, h.Server, mine.ID(), reqs, "the ChatGPT run going on (ChatGPT takes one run at a time)")
	})
}

// askInTurns submits reqs at once through remote and wants them all
// answered in tab, one of them queued meanwhile for waiting, as the event
// stream and the job's own view say.
func askInTurns(t *testing.T, ctx context.Context, o *owner, remote service.Service, srv *sim.Server, tab string, reqs []service.JobRequest, waiting string) {
	t.Helper()
	ectx, stop := context.WithCancel(ctx)
	defer stop()
	events, err := o.hb.Events(ectx)
	if err != nil {
		t.Fatal(err)
	}
	var waits, views []string
	seen := make(chan struct{})
	go func() {
		defer close(seen)
		for ev := range events {
			if je, ok := ev.JobEvent(); ok && je.Run != nil && je.Run.State == service.StateQueued {
				waits = append(waits, ev.JobID+" "+je.Run.Note)
				// The job itself says so while it waits (the first answer
				// streams for seconds).
				if j, err := remote.GetJob(ctx, service.Owner(service.FaceCLI), service.JobRef{ID: ev.JobID}); err != nil ||
					j.State != service.StateQueued || j.Detail == nil || j.Detail.Waiting != waiting {
					views = append(views, fmt.Sprintf("%+v %v", j, err))
				}
			}
		}
	}()
	jobs, errs := askAll(ctx, remote, reqs)
	stop()
	<-seen
	checkAnswered(t, srv, reqs, jobs, errs)
	for _, j := range jobs {
		if j.Detail.Run.TargetID != tab {
			t.Fatalf("job %s ran in tab %s, not %s", j.ID, j.Detail.Run.TargetID, tab)
		}
	}
	note := " waiting for " + waiting
	if len(waits) != 1 || (waits[0] != jobs[0].ID+note && waits[0] != jobs[1].ID+note) {
		t.Fatalf("queued events %q, want one job%s", waits, note)
	}
	if len(views) > 0 {
		t.Fatalf("a queued job's view does not say it waits for %s: %s", waiting, views)
	}
}
