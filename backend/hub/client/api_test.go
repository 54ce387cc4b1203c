package client_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

func TestTheClientCoversTheAPI(t *testing.T) {
	path := hubPath(t)
	srv, be := startHub(t, path)
	ctx := context.Background()
	owner := client.New(discover(t, path))

	who, err := owner.WhoAmI(ctx)
	if err != nil || !who.Owner {
		t.Fatalf("whoami: %+v %v", who, err)
	}
	job, err := owner.CreateJob(ctx, hub.JobSpec{Kind: hub.KindCode, Prompt: "make a zip"})
	if err != nil || job.State != "running" {
		t.Fatalf("owner job: %+v %v", job, err)
	}
	if got, err := owner.GetJob(ctx, job.ID); err != nil || got.ID != job.ID {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := owner.GetJob(ctx, "nope"); !errs.Has(err, errs.HubNotFound) {
		t.Fatalf("a missing job: %v, want the backend's envelope", err)
	}
	if s, err := owner.ListSessions(ctx, hub.SessionQuery{Limit: 5}); err != nil || len(s) != 1 {
		t.Fatalf("sessions: %v %v", s, err)
	}
	if s, err := owner.SearchSessions(ctx, "rivers", 5); err != nil || s[0].Title != "rivers" {
		t.Fatalf("search: %v %v", s, err)
	}
	if s, err := owner.ShowSession(ctx, "s9"); err != nil || s.ID != "s9" {
		t.Fatalf("show: %v %v", s, err)
	}
	if tabs, err := owner.ListTabs(ctx); err != nil || tabs[0].TargetID != "T1" {
		t.Fatalf("tabs: %v %v", tabs, err)
	}
	be.mu.Lock()
	be.artifacts[job.ID+"/out.zip"] = []byte("zip bytes")
	be.mu.Unlock()
	var buf bytes.Buffer
	if n, err := owner.DownloadArtifact(ctx, job.ID, "out.zip", &buf); err != nil || n != 9 || buf.String() != "zip bytes" {
		t.Fatalf("download: %d %q %v", n, buf.String(), err)
	}
	if c, err := owner.CancelJob(ctx, job.ID); err != nil || c.State != "cancelled" {
		t.Fatalf("cancel: %+v %v", c, err)
	}

	code, err := owner.NewPairingCode(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ep, clientID, err := client.Pair(ctx, srv.Port(), code.Code, "agent")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := client.Pair(ctx, srv.Port(), code.Code, "agent"); !errs.Has(err, errs.PairingCodeInvalid) {
		t.Fatalf("second use of the code: %v", err)
	}
	agent := client.New(ep)
	waiting, err := agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Prompt: "hi"})
	if err != nil || waiting.State != hub.StateAwaitingApproval {
		t.Fatalf("agent job: %+v %v", waiting, err)
	}
	if _, err := agent.Approve(ctx, waiting.ID); !errs.Has(err, errs.HubForbidden) {
		t.Fatalf("agent approving: %v", err)
	}
	if aps, err := owner.Approvals(ctx); err != nil || len(aps) != 1 || aps[0].ClientID != clientID {
		t.Fatalf("approvals: %v %v", aps, err)
	}
	if j, err := owner.Approve(ctx, waiting.ID); err != nil || j.State != "running" {
		t.Fatalf("approve: %+v %v", j, err)
	}
	second, _ := agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Prompt: "again"})
	if j, err := owner.Reject(ctx, second.ID, "no"); err != nil || j.State != "failed" {
		t.Fatalf("reject: %+v %v", j, err)
	}
	if info, err := owner.SetAutoApprove(ctx, clientID, true); err != nil || !info.AutoApprove {
		t.Fatalf("auto-approve: %+v %v", info, err)
	}
	if j, _ := agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Prompt: "trusted"}); j.State != "running" {
		t.Fatalf("auto-approved job: %+v", j)
	}
	if list, err := owner.Clients(ctx); err != nil || len(list) != 1 {
		t.Fatalf("clients: %v %v", list, err)
	}
	if _, err := owner.Revoke(ctx, clientID); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.WhoAmI(ctx); !errs.Has(err, errs.HubUnauthorized) {
		t.Fatalf("revoked agent: %v", err)
	}
}
