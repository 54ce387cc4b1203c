package core

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestACheckOfTheSitesLeavesARunInFlightAlone: checking the sites while a
// run streams its answer in the owner's browser reads the run's own tab
// (no tab opened, nothing sent) and the run ends done with its whole
// answer, sent once.
func TestACheckOfTheSitesLeavesARunInFlightAlone(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(sim.WithPace(2, 40*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: h.Browser})
	defer o.stop(t)
	svc := o.svc
	owner := service.Owner(service.FaceCLI)

	prompt := "Stream slowly while I look"
	j, err := svc.SubmitJob(ctx, owner, service.JobRequest{Kind: service.KindAsk, Site: sim.ChatGPT, Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	for {
		cur, err := svc.GetJob(ctx, owner, service.JobRef{ID: j.ID})
		if err != nil {
			t.Fatal(err)
		}
		if cur.Detail.Run != nil && cur.Detail.Run.State == job.StateStreaming {
			break
		}
		if cur.Ended() {
			t.Fatalf("the run ended before the check: %+v", cur)
		}
		time.Sleep(20 * time.Millisecond)
	}
	rep, err := svc.DoctorSites(ctx, owner, service.SitesDoctorRequest{Sites: []string{sim.ChatGPT}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sites) != 1 || rep.Sites[0].Opened || rep.Sites[0].Error != nil || !rep.Sites[0].LoggedIn {
		t.Fatalf("the check of the run's tab: %+v", rep)
	}
	end, err := svc.WatchJob(ctx, owner, service.WatchRequest{ID: j.ID}, nil)
	if err != nil || end.State != string(job.StateDone) || end.Detail.Run == nil || end.Detail.Run.Answer != providertest.NormalAnswer(prompt) {
		t.Fatalf("the run after the check: %+v %v", end, err)
	}
	if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
		t.Fatalf("%d submissions, want the run's 1", n)
	}
}
