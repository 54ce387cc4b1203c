package hub_test

import (
	"context"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

// careless is a backend that ignores AwaitApproval: the hub must not let
// such a job through.
type careless struct{ *fakeBackend }

func (c careless) CreateJob(ctx context.Context, spec hub.JobSpec, _ hub.CreateOptions) (hub.Job, error) {
	return c.fakeBackend.CreateJob(ctx, spec, hub.CreateOptions{})
}

func TestAJobThatSkipsApprovalIsCancelled(t *testing.T) {
	be := careless{newFakeBackend()}
	srv, err := hub.New(be)
	if err != nil {
		t.Fatal(err)
	}
	info, _, err := srv.RegisterClient(context.Background(), "agent")
	if err != nil {
		t.Fatal(err)
	}
	_, err = srv.CreateJob(context.Background(), hub.Caller{ClientID: info.ID, Name: "agent"}, hub.JobSpec{Kind: hub.KindAsk, Prompt: "x"})
	if !errs.Has(err, errs.Internal) {
		t.Fatalf("CreateJob: %v, want an internal error", err)
	}
	if j, _ := be.GetJob(context.Background(), "job-1"); j.State != "cancelled" {
		t.Fatalf("the job is %q, want cancelled", j.State)
	}
	if len(srv.Approvals()) != 0 {
		t.Fatal("an approval was recorded for a job that is already cancelled")
	}
}
