package client_test

import (
	"context"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestRetrieveGoesOverTheWire(t *testing.T) {
	path := hubPath(t)
	srv, _ := startHub(t, path)
	ctx := context.Background()
	owner := client.NewService(client.New(discover(t, path)))
	cli := service.Owner(service.FaceCLI)
	req := func(conv string) service.RetrieveRequest {
		return service.RetrieveRequest{Conversation: conv, OutDir: "/tmp/zips", TimeoutMs: 1000}
	}

	t.Run("the owner gets the receipt of a retrieval", func(t *testing.T) {
		rc, err := owner.Retrieve(ctx, cli, req("conv-ok"))
		if err != nil || rc == nil || !rc.OK || rc.ConversationID != "conv-ok" || rc.Path != "/tmp/zips" {
			t.Fatalf("retrieve: %+v %v", rc, err)
		}
	})
	t.Run("a retrieval that failed after it began gives its receipt and its error", func(t *testing.T) {
		rc, err := owner.Retrieve(ctx, cli, req("conv-failed"))
		if rc == nil || rc.ConversationID != "conv-failed" || !errs.Has(err, errs.ArtifactNotFound) {
			t.Fatalf("retrieve: %+v %v", rc, err)
		}
	})
	t.Run("a retrieval refused before it began gives the error alone", func(t *testing.T) {
		rc, err := owner.Retrieve(ctx, cli, req("bad id"))
		if rc != nil || !errs.Has(err, errs.BadInput) {
			t.Fatalf("retrieve: %+v %v", rc, err)
		}
	})
	t.Run("a request without a timeout is refused before it is sent", func(t *testing.T) {
		if _, err := owner.Retrieve(ctx, cli, service.RetrieveRequest{Conversation: "conv-ok"}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("retrieve: %v", err)
		}
	})
	t.Run("a browser off loopback is refused", func(t *testing.T) {
		r := req("conv-ok")
		r.Browser = &service.BrowserSpec{Mode: service.BrowserAttach, URL: "ws://example.com:9222/devtools/browser/x"}
		if _, err := owner.Retrieve(ctx, cli, r); !errs.Has(err, errs.BadInput) {
			t.Fatalf("retrieve: %v", err)
		}
	})
	t.Run("an agent's retrieval reaches the service as the agent, and its refusal comes back", func(t *testing.T) {
		code, err := owner.Client().NewPairingCode(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ep, _, err := client.Pair(ctx, srv.Port(), code.Code, "agent")
		if err != nil {
			t.Fatal(err)
		}
		agent := client.NewService(client.New(ep))
		if _, err := agent.Retrieve(ctx, service.Agent("x"), req("conv-ok")); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("agent retrieve: %v", err)
		}
	})
}
