package core

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestEnsureAgentKeepsOneClientPerName: in process, the owner's EnsureAgent
// makes the agent client of a name once, with no token and awaiting approval
// like any new client; an agent may not call it; a revoked one comes back
// revoked.
func TestEnsureAgentKeepsOneClientPerName(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	owner := service.Owner(service.FaceMCP)
	req := service.EnsureAgentRequest{Name: "claude-code", Kind: service.AgentKindMCP}
	first, err := s.EnsureAgent(ctx, owner, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.EnsureAgent(ctx, owner, req)
	if err != nil || again.ID != first.ID || first.Kind != service.AgentKindMCP || first.AutoApprove {
		t.Fatalf("ensure twice: %+v then %+v, %v", first, again, err)
	}
	rec, err := c.clients.Get(ctx, first.ID)
	if err != nil || rec.TokenDigest != (service.Digest{}) || rec.Name != "claude-code" {
		t.Fatalf("stored client: %+v, %v; want it without a token", rec, err)
	}
	if _, err := s.EnsureAgent(ctx, service.Agent(first.ID), req); !errs.Has(err, errs.HubForbidden) {
		t.Fatalf("an agent ensured a client: %v", err)
	}
	if _, err := s.EnsureAgent(ctx, owner, service.EnsureAgentRequest{Name: " ", Kind: service.AgentKindMCP}); !errs.Has(err, errs.BadInput) {
		t.Fatalf("a blank name: %v", err)
	}
	j, err := s.SubmitJob(ctx, service.Agent(first.ID), service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hi"})
	if err != nil || j.State != service.StateAwaitingApproval {
		t.Fatalf("the agent's job: %+v, %v; want it awaiting approval", j, err)
	}
	if _, err := s.RevokeClient(ctx, service.Owner(service.FaceCLI), service.ClientRef{ID: first.ID}); err != nil {
		t.Fatal(err)
	}
	revoked, err := s.EnsureAgent(ctx, owner, req)
	if err != nil || revoked.ID != first.ID || revoked.RevokedAt == nil {
		t.Fatalf("ensure after revocation: %+v, %v; want the same client, revoked", revoked, err)
	}
}
