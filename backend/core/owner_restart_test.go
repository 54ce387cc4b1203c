package core

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/jobs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/service"
)

// owner is one lifetime of an owner process: the core on the data
// directory, its hub backend and the hub serving it.
type owner struct {
	c    *Core
	jobs *Owner
	hb   *jobs.Runner
	svc  *Service
	srv  *hub.Server
}

func startOwner(t testing.TB, ctx context.Context, dir string, opts OwnerOptions) *owner {
	t.Helper()
	c := openTestCore(t, dir)
	o := &owner{c: c, jobs: StartOwner(c, opts)}
	o.hb, o.svc = o.jobs.run, o.jobs.Service
	err := o.jobs.Serve(ctx, func(ctx context.Context, svc service.Gateway) (func(context.Context) error, error) {
		srv, err := hub.Serve(ctx, svc, hub.WithHubFile(c.Paths().HubFile()))
		if err != nil {
			return nil, err
		}
		o.srv = srv
		return srv.Close, nil
	})
	if err != nil {
		c.Close()
		t.Fatal(err)
	}
	return o
}

// autoApprove sets whether client id's jobs skip the approval, as the
// user's switch does.
func (o *owner) autoApprove(ctx context.Context, id string, on bool) (service.ClientInfo, error) {
	return o.svc.SetAutoApprove(ctx, service.Owner(service.FaceCLI), service.AutoApproveRequest{ID: id, AutoApprove: on})
}

// register pairs a client named name as a redeemed code does, returning
// it with its token.
func (o *owner) register(ctx context.Context, name string) (service.ClientInfo, string, error) {
	rec, token, err := o.c.clients.Register(ctx, name)
	return rec.Info(), token, err
}

func (o *owner) stop(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := o.jobs.Stop(ctx); err != nil {
		t.Error(err)
	}
	if err := o.c.Close(); err != nil {
		t.Error(err)
	}
}

// TestApprovalsSurviveARestartOfTheOwner: an agent's jobs wait for
// approval in the store; after the owner stopped and started again (a new
// process in all but name: new core, backend, hub and port on the same
// badger directory) they are listed again, one approved runs against the
// simulator and one rejected never runs.
func TestApprovalsSurviveARestartOfTheOwner(t *testing.T) {
	t.Parallel()
	sim, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()

	first := startOwner(t, ctx, dir, OwnerOptions{Browser: sim.Browser})
	info, token, err := first.register(ctx, "restart agent")
	if err != nil {
		t.Fatal(err)
	}
	agent := client.New(client.NewEndpoint(first.srv.Port(), token))
	runPrompt, holdPrompt := "Run me after the restart", "Never run me"
	toRun, err := agent.CreateJob(ctx, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: runPrompt})
	if err != nil {
		t.Fatal(err)
	}
	toReject, err := agent.CreateJob(ctx, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: holdPrompt})
	if err != nil {
		t.Fatal(err)
	}
	if toRun.State != service.StateAwaitingApproval || toReject.State != service.StateAwaitingApproval {
		t.Fatalf("agent jobs are %s and %s, want both awaiting approval", toRun.State, toReject.State)
	}
	first.stop(t)

	second := startOwner(t, ctx, dir, OwnerOptions{Browser: sim.Browser})
	defer second.stop(t)
	ep, err := client.Discover(ctx, second.c.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	ownerCl := client.New(ep)
	agent = client.New(client.NewEndpoint(second.srv.Port(), token))

	t.Run("the waiting jobs are listed again with their client and prompt", func(t *testing.T) {
		aps, err := ownerCl.Approvals(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(aps) != 2 || aps[0].JobID != toRun.ID || aps[1].JobID != toReject.ID {
			t.Fatalf("approvals after restart: %+v", aps)
		}
		for _, ap := range aps {
			if ap.ClientID != info.ID || ap.ClientName != "restart agent" || ap.Kind != service.KindAsk || ap.Site != "chatgpt" || ap.RequestedAt.IsZero() {
				t.Fatalf("restored approval: %+v", ap)
			}
		}
		if aps[0].Summary != runPrompt {
			t.Fatalf("summary %q, want the prompt", aps[0].Summary)
		}
		if j, err := agent.GetJob(ctx, toRun.ID); err != nil || j.State != service.StateAwaitingApproval {
			t.Fatalf("the job moved by itself after the restart: %+v %v", j, err)
		}
	})
	t.Run("a rejected job ends failed with approval_rejected and leaves no run", func(t *testing.T) {
		j, err := ownerCl.Reject(ctx, toReject.ID, "after restart")
		if err != nil {
			t.Fatal(err)
		}
		if j.State != string(job.StateFailed) || !errs.Has(j.Error, errs.ApprovalRejected) {
			t.Fatalf("rejected job: %s %+v", j.State, j.Error)
		}
		if _, n, _ := mustHistory(t, second.c).List(ctx, job.Filter{Query: holdPrompt}); n != 0 {
			t.Fatalf("a rejected job left %d runs", n)
		}
	})
	t.Run("an approved job runs to its answer", func(t *testing.T) {
		if _, err := ownerCl.Approve(ctx, toRun.ID); err != nil {
			t.Fatal(err)
		}
		var j service.Job
		for {
			if j, err = agent.GetJob(ctx, toRun.ID); err != nil {
				t.Fatal(err)
			}
			if d := j.Detail; d != nil && d.Ended {
				if j.State != string(job.StateDone) || d.Run == nil || d.Run.Answer != providertest.NormalAnswer(runPrompt) || d.Run.Origin != job.OriginAgent {
					t.Fatalf("approved job ended %s, run %+v, error %v", j.State, d.Run, j.Error)
				}
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("approved job still %s", j.State)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if aps, err := ownerCl.Approvals(ctx); err != nil || len(aps) != 0 {
			t.Fatalf("approvals after deciding both: %+v %v", aps, err)
		}
		if _, err := ownerCl.Approve(ctx, toRun.ID); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("approving twice: %v", err)
		}
	})
}
