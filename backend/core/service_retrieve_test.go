package core

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestServiceRetrieveAndTheRequestsBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	owner := service.Owner(service.FaceCLI)
	agent := pairTestClient(t, ctx, c, "c_agent", true)
	conv := "67f0c1d2-0000-4000-8000-000000000001"
	own := &service.BrowserSpec{Mode: service.BrowserAttach, URL: c.Paths().ProfileDir()}

	t.Run("an agent may not retrieve into the owner's files", func(t *testing.T) {
		_, err := s.Retrieve(ctx, agent, service.RetrieveRequest{Conversation: conv, TimeoutMs: 1000})
		if !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("agent retrieve: %v", err)
		}
	})
	t.Run("a conversation id that is not one is bad input before any receipt", func(t *testing.T) {
		rc, err := s.Retrieve(ctx, owner, service.RetrieveRequest{Conversation: "not/an id", TimeoutMs: 1000})
		if rc != nil || !errs.Has(err, errs.BadInput) {
			t.Fatalf("retrieve: %+v %v", rc, err)
		}
	})
	t.Run("attaching to Ferry's own browser that does not run says so in the receipt", func(t *testing.T) {
		out := t.TempDir()
		rc, err := s.Retrieve(ctx, owner, service.RetrieveRequest{Conversation: conv, OutDir: out, TimeoutMs: 5000, Browser: own})
		if !errs.Has(err, errs.BrowserDisconnected) || rc == nil || rc.OK || rc.Error == nil || rc.Error.Code != errs.BrowserDisconnected {
			t.Fatalf("retrieve: %+v %v", rc, err)
		}
	})
	t.Run("an ask job attaching to Ferry's own browser that does not run fails saying so", func(t *testing.T) {
		j, err := s.SubmitJob(ctx, owner, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hi", TimeoutSeconds: 10, Browser: own})
		if err != nil {
			t.Fatal(err)
		}
		if j.Detail == nil || j.Detail.Spec.Browser == nil || j.Detail.Spec.Browser.Mode != service.BrowserAttach {
			t.Fatalf("the job does not keep the browser it was asked for: %+v", j.Detail)
		}
		j, err = s.WatchJob(ctx, owner, service.WatchRequest{ID: j.ID}, nil)
		if err != nil || j.Error == nil || j.Error.Code != errs.BrowserDisconnected {
			t.Fatalf("job %+v %v, want it failed with browser_disconnected", j, err)
		}
	})
}
