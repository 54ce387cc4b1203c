package hub_test

import (
	"context"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

// careless is a service that lets every job through, an agent's too: the
// hub must not let such a job run.
type careless struct{ *fakeBackend }

func (c careless) SubmitJob(ctx context.Context, caller service.Caller, spec hub.JobSpec) (hub.Job, error) {
	return c.fakeBackend.create(spec, caller.Requester(), createOptions{})
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
	if j, _ := be.job("job-1"); j.State != "cancelled" {
		t.Fatalf("the job is %q, want cancelled", j.State)
	}
	if len(srv.Approvals()) != 0 {
		t.Fatal("an approval was recorded for a job that is already cancelled")
	}
}
