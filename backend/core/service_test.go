package core

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/clients"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

func openTestCore(t testing.TB, dir string) *Core {
	t.Helper()
	c, err := Open(context.Background(), Options{DataDir: dir, Role: "serve"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustHistory is c's session repository.
func mustHistory(t *testing.T, c *Core) *job.Repo {
	t.Helper()
	repo, err := c.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// openTestService starts an owner of a fresh data directory with opts (the
// first, if any) and returns its Service.
func openTestService(t *testing.T, ctx context.Context, opts ...OwnerOptions) (*Service, *Core) {
	t.Helper()
	c := openTestCore(t, t.TempDir())
	var o OwnerOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	own := StartOwner(c, o)
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		own.Stop(cctx)
		c.Close()
	})
	return own.Service, c
}

func pairTestClient(t *testing.T, ctx context.Context, c *Core, id string, auto bool) service.Caller {
	t.Helper()
	if err := c.clients.Put(ctx, clients.Record{ID: id, Name: "agent " + id, AutoApprove: auto, CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	return service.Agent(id)
}

func TestServiceDecidesFromTheCaller(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	owner := service.Owner(service.FaceCLI)
	agent := pairTestClient(t, ctx, c, "c_agent", false)
	other := pairTestClient(t, ctx, c, "c_other", false)

	t.Run("hello names the version, the wire revision and the caller", func(t *testing.T) {
		h, err := s.Hello(ctx, agent, service.HelloRequest{})
		if err != nil || h.Version != version.Version || h.Wire != service.WireRevision || h.Caller != agent {
			t.Fatalf("%+v %v", h, err)
		}
	})
	t.Run("a request without a caller is refused", func(t *testing.T) {
		if _, err := s.ListSessions(ctx, service.Caller{}, service.SessionQuery{}); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("an agent may not do the owner's part", func(t *testing.T) {
		for name, call := range map[string]func() error{
			"list approvals": func() error { _, err := s.ListApprovals(ctx, agent, service.ListApprovalsRequest{}); return err },
			"approve":        func() error { _, err := s.Approve(ctx, agent, service.ApprovalRef{JobID: "job-x"}); return err },
			"list clients":   func() error { _, err := s.ListClients(ctx, agent, service.ListClientsRequest{}); return err },
			"revoke":         func() error { _, err := s.RevokeClient(ctx, agent, service.ClientRef{ID: "c_other"}); return err },
			"pair":           func() error { _, err := s.NewPairingCode(ctx, agent, service.PairingRequest{}); return err },
			"poll":           func() error { _, err := s.PollSession(ctx, agent, service.PollRequest{}); return err },
			"reattach":       func() error { _, err := s.ReattachSession(ctx, agent, service.ReattachRequest{}); return err },
			"save template": func() error {
				_, err := s.SaveTemplate(ctx, agent, service.Template{Name: "mine", Body: "hi"})
				return err
			},
			"submit a reattach": func() error {
				_, err := s.SubmitJob(ctx, agent, service.JobRequest{Kind: service.KindReattach, SessionID: "abc"})
				return err
			},
		} {
			if err := call(); !errs.Has(err, errs.HubForbidden) {
				t.Errorf("%s: %v, want hub_forbidden", name, err)
			}
		}
	})
	t.Run("an invalid request is refused before anything is stored", func(t *testing.T) {
		if _, err := s.SubmitJob(ctx, owner, service.JobRequest{Kind: service.KindAsk, Prompt: "hi"}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("an unknown client may not submit", func(t *testing.T) {
		_, err := s.SubmitJob(ctx, service.Agent("c_stranger"), service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hi"})
		if !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("%v", err)
		}
	})

	j, err := s.SubmitJob(ctx, agent, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "wait   for\nme", RequestedBy: "owner"})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("an agent's job waits for approval, recorded as the agent's", func(t *testing.T) {
		if j.State != service.StateAwaitingApproval || j.RequestedBy != "c_agent" || j.Detail == nil || j.Detail.Spec.RequestedBy != "c_agent" {
			t.Fatalf("%+v", j)
		}
		aps, err := s.ListApprovals(ctx, owner, service.ListApprovalsRequest{})
		if err != nil || len(aps) != 1 || aps[0].JobID != j.ID || aps[0].ClientName != "agent c_agent" || aps[0].Summary != "wait for me" {
			t.Fatalf("%+v %v", aps, err)
		}
	})
	t.Run("another agent cannot see or cancel it", func(t *testing.T) {
		if _, err := s.GetJob(ctx, other, service.JobRef{ID: j.ID}); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("get: %v", err)
		}
		if _, err := s.CancelJob(ctx, other, service.JobRef{ID: j.ID}); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("cancel: %v", err)
		}
	})
	t.Run("a rejected job ends, and watching it returns at once", func(t *testing.T) {
		r, err := s.Reject(ctx, owner, service.RejectRequest{JobID: j.ID, Reason: "not now"})
		if err != nil || r.State != string(job.StateFailed) || !errs.Has(r.Error, errs.ApprovalRejected) {
			t.Fatalf("%+v %v", r, err)
		}
		w, err := s.WatchJob(ctx, agent, service.WatchRequest{ID: j.ID}, nil)
		if err != nil || !w.Ended() || w.ID != j.ID {
			t.Fatalf("%+v %v", w, err)
		}
	})
	t.Run("templates are saved, rendered and deleted by the owner", func(t *testing.T) {
		if _, err := s.SaveTemplate(ctx, owner, service.Template{Name: "greet", Body: "Hello {{name}}", Variables: []string{"name"}}); err != nil {
			t.Fatal(err)
		}
		r, err := s.RenderTemplate(ctx, agent, service.RenderRequest{Name: "greet", Vars: map[string]string{"name": "Ada"}})
		if err != nil || r.Text != "Hello Ada" {
			t.Fatalf("%+v %v", r, err)
		}
		if d, err := s.DeleteTemplate(ctx, owner, service.TemplateRef{Name: "greet"}); err != nil || d.Deleted != "greet" {
			t.Fatalf("%+v %v", d, err)
		}
		if _, err := s.GetTemplate(ctx, agent, service.TemplateRef{Name: "greet"}); !errs.Has(err, errs.TemplateNotFound) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("clients are listed, set to auto-approve and revoked", func(t *testing.T) {
		info, err := s.SetAutoApprove(ctx, owner, service.AutoApproveRequest{ID: "c_other", AutoApprove: true})
		if err != nil || !info.AutoApprove {
			t.Fatalf("%+v %v", info, err)
		}
		if info, err = s.RevokeClient(ctx, owner, service.ClientRef{ID: "c_other"}); err != nil || info.RevokedAt == nil {
			t.Fatalf("%+v %v", info, err)
		}
		if _, err := s.SubmitJob(ctx, other, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hi"}); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("a revoked client submitted: %v", err)
		}
		list, err := s.ListClients(ctx, owner, service.ListClientsRequest{})
		if err != nil || len(list) != 2 {
			t.Fatalf("%+v %v", list, err)
		}
	})
	t.Run("pairing needs a hub", func(t *testing.T) {
		if _, err := s.NewPairingCode(ctx, owner, service.PairingRequest{}); !errs.Has(err, errs.HubNotRunning) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("an unknown run is not found", func(t *testing.T) {
		if _, err := s.ShowSession(ctx, owner, service.SessionRef{ID: "nope"}); !errs.Has(err, errs.SessionNotFound) {
			t.Fatalf("%v", err)
		}
	})
}

// TestServiceWatchesAJobToItsEnd: the owner's ask runs against the
// simulator; watching it delivers the answer's partial text and the run's
// states, and ends with the job, whose run is the record `ferry sessions
// show` prints and whose export carries the answer.
func TestServiceWatchesAJobToItsEnd(t *testing.T) {
	t.Parallel()
	sim, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, _ := openTestService(t, ctx, OwnerOptions{Browser: sim.Browser})
	owner := service.Owner(service.FaceDesktop)
	prompt := "Watch me to the end"
	j, err := s.SubmitJob(ctx, owner, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var states []job.State
	partial := ""
	end, err := s.WatchJob(ctx, owner, service.WatchRequest{ID: j.ID}, func(ev service.JobEvent) {
		mu.Lock()
		defer mu.Unlock()
		if ev.Run != nil && ev.Run.Partial != nil {
			partial = ev.Run.Partial.Text
		}
		if ev.Run != nil && ev.Run.State != "" {
			states = append(states, ev.Run.State)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	answer := providertest.NormalAnswer(prompt)
	if !end.Ended() || end.State != string(job.StateDone) || end.Detail.Run == nil || end.Detail.Run.Answer != answer || end.RequestedBy != service.DesktopRequester {
		t.Fatalf("ended %+v", end)
	}
	mu.Lock()
	if !strings.HasPrefix(answer, partial) || partial == "" || len(states) == 0 || states[len(states)-1] != job.StateDone {
		t.Fatalf("events: partial %q, states %v", partial, states)
	}
	mu.Unlock()
	shown, err := s.ShowSession(ctx, owner, service.SessionRef{ID: end.Detail.Run.ID[:8]})
	if err != nil || shown.Detail == nil || shown.Detail.Session.Answer != answer || len(shown.Detail.Journal) == 0 || shown.Detail.Session.Origin != job.OriginDesktop {
		t.Fatalf("show: %+v %v", shown, err)
	}
	ex, err := s.ExportSession(ctx, owner, service.ExportRequest{ID: end.Detail.Run.ID, Format: service.FormatMarkdown})
	if err != nil || !strings.Contains(ex.Body, answer) {
		t.Fatalf("export: %+v %v", ex, err)
	}
}
