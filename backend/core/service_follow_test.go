package core

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestServiceHonoursTheBrowserARequestNames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	owner := service.Owner(service.FaceCLI)
	agent := pairTestClient(t, ctx, c, "c_agent", true)
	repo := mustHistory(t, c)
	if _, err := repo.Create(ctx, &job.Session{ID: "run-live", Site: "chatgpt", Prompt: "p", State: job.StateStreaming}); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Create(ctx, &job.Session{ID: "run-over", Site: "chatgpt", Prompt: "p", State: job.StateDone}); err != nil {
		t.Fatal(err)
	}

	t.Run("without a long-lived browser the tab list of the implementation's browser is empty", func(t *testing.T) {
		tabs, err := s.ListTabs(ctx, owner, service.ListTabsRequest{})
		if err != nil || len(tabs) != 0 {
			t.Fatalf("%+v %v", tabs, err)
		}
	})
	t.Run("Ferry's own browser that does not run is browser_disconnected", func(t *testing.T) {
		_, err := s.ListTabs(ctx, owner, service.ListTabsRequest{Browser: &service.BrowserSpec{Mode: service.BrowserOwn}})
		if !errs.Has(err, errs.BrowserDisconnected) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("an agent may not make the owner launch or attach to a browser", func(t *testing.T) {
		for _, b := range []service.BrowserSpec{{Mode: service.BrowserOwn}, {Mode: service.BrowserLaunch}, {Mode: service.BrowserAttach, URL: "ws://127.0.0.1:1/devtools/browser/x"}} {
			if _, err := s.ListTabs(ctx, agent, service.ListTabsRequest{Browser: &b}); !errs.Has(err, errs.HubForbidden) {
				t.Fatalf("%s: got %v", b.Mode, err)
			}
		}
	})
	t.Run("a reattach of an active run names a browser when the implementation has none", func(t *testing.T) {
		_, err := s.ReattachSession(ctx, owner, service.ReattachRequest{Session: "run-live"})
		if !errs.Has(err, errs.BadInput) {
			t.Fatalf("got %v", err)
		}
		if s.h.RunsSession("run-live") {
			t.Fatal("a job was started for run-live")
		}
	})
	t.Run("a reattach of a finished run needs no browser and ends at once", func(t *testing.T) {
		res, err := s.ReattachSession(ctx, owner, service.ReattachRequest{Session: "run-over"})
		if err != nil || !res.Started || !res.Job.Ended() || res.Job.Detail.Run == nil || res.Job.Detail.Run.ID != "run-over" {
			t.Fatalf("%+v %v", res, err)
		}
	})
}
