package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestGatewayApprovalsAndClients(t *testing.T) {
	// Runs that do start fail at once on a browser nobody serves, instead
	// of launching one against the real sites.
	sh, _, _ := openShell(t, func(dataDir string) {
		if err := os.WriteFile(filepath.Join(dataDir, "settings.json"), []byte(`{"browser": {"attachURL": "http://127.0.0.1:1"}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	g := &Gateway{sh: sh}
	srv := sh.hubServer()
	if srv == nil {
		t.Fatal("the hub did not start")
	}
	ctx := context.Background()
	agent := sh.pairAgent(t, "codex")
	ask := func(prompt string) hub.Job {
		t.Helper()
		j, err := sh.submitAs(ctx, agent, service.JobRequest{Kind: hub.KindAsk, Site: "chatgpt", Prompt: prompt})
		if err != nil || j.State != hub.StateAwaitingApproval {
			t.Fatalf("create job: %+v, %v", j, err)
		}
		return j
	}
	first, second := ask("refactor the parser"), ask("write the docs")

	t.Run("waiting jobs are listed oldest first with who asks and what for", func(t *testing.T) {
		aps, err := g.Approvals()
		if err != nil || len(aps) != 2 || aps[0].JobID != first.ID || aps[0].ClientName != "codex" || aps[0].Summary != "refactor the parser" || aps[0].Site != "chatgpt" {
			t.Fatalf("approvals %+v, %v", aps, err)
		}
	})
	t.Run("reject ends the job with the reason and removes it", func(t *testing.T) {
		j, err := g.Reject(first.ID, "not now")
		if err != nil || j.State == hub.StateAwaitingApproval || j.Error == nil || j.Error.Code != errs.ApprovalRejected {
			t.Fatalf("reject: %+v, %v", j, err)
		}
		if aps, _ := g.Approvals(); len(aps) != 1 || aps[0].JobID != second.ID {
			t.Errorf("approvals after the reject: %+v", aps)
		}
	})
	t.Run("a decision on a job that no longer waits is hub_not_found", func(t *testing.T) {
		if _, err := g.Approve(first.ID); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("approve a rejected job: %v", err)
		}
	})
	t.Run("approve starts the run", func(t *testing.T) {
		j, err := g.Approve(second.ID)
		if err != nil || j.State == hub.StateAwaitingApproval {
			t.Fatalf("approve: %+v, %v", j, err)
		}
		if aps, _ := g.Approvals(); len(aps) != 0 {
			t.Errorf("approvals after the approve: %+v", aps)
		}
		// Let the run reach its end (the dead browser address) before the
		// shell closes.
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second) // a bound only a hang reaches
		defer cancel()
		if jj, err := sh.own.svc.WatchJob(wctx, service.Owner(service.FaceDesktop), service.WatchRequest{ID: second.ID}, nil); err != nil || !jj.Ended() {
			t.Fatalf("the approved run did not end: %+v %v", jj, err)
		}
	})
	t.Run("clients are listed, set to run without asking, granted the user's conversations, and revoked", func(t *testing.T) {
		cs, err := g.Clients()
		if err != nil || len(cs) != 1 || cs[0].ID != agent.Client || cs[0].AutoApprove {
			t.Fatalf("clients %+v, %v", cs, err)
		}
		if c, err := g.SetAutoApprove(agent.Client, true); err != nil || !c.AutoApprove {
			t.Fatalf("auto-approve: %+v, %v", c, err)
		}
		if cs[0].ExistingConversations {
			t.Fatalf("a new client may use the user's conversations: %+v", cs[0])
		}
		if c, err := g.GrantClient(agent.Client, true); err != nil || !c.ExistingConversations || !c.AutoApprove {
			t.Fatalf("grant: %+v, %v", c, err)
		}
		if c, err := g.GrantClient(agent.Client, false); err != nil || c.ExistingConversations {
			t.Fatalf("grant taken back: %+v, %v", c, err)
		}
		if c, err := g.Revoke(agent.Client); err != nil || c.RevokedAt == nil {
			t.Fatalf("revoke: %+v, %v", c, err)
		}
		if _, err := g.SetAutoApprove(agent.Client, false); !errs.Has(err, errs.BadInput) {
			t.Errorf("auto-approve of a revoked client: %v", err)
		}
		if _, err := g.GrantClient(agent.Client, true); !errs.Has(err, errs.BadInput) {
			t.Errorf("grant to a revoked client: %v", err)
		}
		if _, err := g.Revoke("nobody"); !errs.Has(err, errs.HubNotFound) {
			t.Errorf("revoke of an unknown client: %v", err)
		}
	})
	t.Run("a pairing code is issued for five minutes at most", func(t *testing.T) {
		pc, err := g.PairingCode()
		if err != nil || pc.Code == "" || time.Until(pc.ExpiresAt) > 5*time.Minute || time.Until(pc.ExpiresAt) <= 0 {
			t.Fatalf("pairing code %+v, %v", pc, err)
		}
	})
}

func TestGatewayWithoutAHubSaysSo(t *testing.T) {
	g := &Gateway{sh: newShell(apptest.QuietLog(), time.Now())}
	if _, err := g.Approvals(); !errs.Has(err, errs.HubNotRunning) {
		t.Fatalf("Approvals without a hub: %v", err)
	}
	if _, err := g.Approve("x"); !errs.Has(err, errs.HubNotRunning) {
		t.Fatalf("Approve without a hub: %v", err)
	}
}
