package core

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestTheRemoteServiceAnswersAsTheInProcessOne: over a real owner (the hub
// over a core with the simulator's browser), hub/client's Service gives
// the same typed results as core's, an owner's job is watched to its end
// with its partial text, and an agent's job waits for the owner's approval.
func TestTheRemoteServiceAnswersAsTheInProcessOne(t *testing.T) {
	t.Parallel()
	sim, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: sim.Browser})
	defer o.stop(t)
	ep, err := client.Discover(ctx, o.c.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	var local, remote service.Service = o.svc, client.NewService(client.New(ep))
	owner := service.Owner(service.FaceCLI)

	prompt := "Follow me from afar"
	j, err := remote.SubmitJob(ctx, owner, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	partial := ""
	end, err := remote.WatchJob(ctx, owner, service.WatchRequest{ID: j.ID}, func(ev service.JobEvent) {
		mu.Lock()
		defer mu.Unlock()
		if ev.Run != nil && ev.Run.Partial != nil {
			partial = ev.Run.Partial.Text
		}
	})
	answer := providertest.NormalAnswer(prompt)
	if err != nil || !end.Ended() || end.State != string(job.StateDone) || end.Detail.Run == nil || end.Detail.Run.Answer != answer {
		t.Fatalf("watched %+v %v", end, err)
	}
	mu.Lock()
	if !strings.HasPrefix(answer, partial) {
		t.Errorf("partial text %q is not the answer's beginning", partial)
	}
	mu.Unlock()
	if _, err := local.SaveTemplate(ctx, owner, service.Template{Name: "ask-about", Body: "Tell me about {{topic}}", Variables: []string{"topic"}}); err != nil {
		t.Fatal(err)
	}

	// A new chat keeps its transient address (/c/WEB:…) a while after its
	// first answer: the tabs and the site check read the lasting one.
	for settled := false; !settled; {
		tabs, err := local.ListTabs(ctx, owner, service.ListTabsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		settled = true
		for _, tb := range tabs {
			settled = settled && !strings.Contains(tb.URL, "/c/WEB:")
		}
		if !settled {
			select {
			case <-ctx.Done():
				t.Fatalf("a tab kept its transient address: %+v", tabs)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}

	id := end.Detail.Run.ID
	same := []struct {
		name string
		call func(s service.Service) (any, error)
	}{
		{"the job", func(s service.Service) (any, error) { return s.GetJob(ctx, owner, service.JobRef{ID: j.ID}) }},
		{"the listing", func(s service.Service) (any, error) { return s.ListSessions(ctx, owner, service.SessionQuery{}) }},
		{"a search", func(s service.Service) (any, error) {
			return s.SearchSessions(ctx, owner, service.SearchRequest{Query: "afar site:chatgpt"})
		}},
		{"a run shown by its prefix", func(s service.Service) (any, error) { return s.ShowSession(ctx, owner, service.SessionRef{ID: id[:8]}) }},
		{"a Markdown export", func(s service.Service) (any, error) {
			return s.ExportSession(ctx, owner, service.ExportRequest{ID: id, Format: service.FormatMarkdown})
		}},
		{"a JSON export", func(s service.Service) (any, error) {
			return s.ExportSession(ctx, owner, service.ExportRequest{ID: id, Format: service.FormatJSON})
		}},
		{"the templates", func(s service.Service) (any, error) {
			return s.ListTemplates(ctx, owner, service.ListTemplatesRequest{})
		}},
		{"a rendering", func(s service.Service) (any, error) {
			return s.RenderTemplate(ctx, owner, service.RenderRequest{Name: "ask-about", Vars: map[string]string{"topic": "rivers"}})
		}},
		{"the tabs", func(s service.Service) (any, error) { return s.ListTabs(ctx, owner, service.ListTabsRequest{}) }},
		{"a live check of the sites", func(s service.Service) (any, error) {
			rep, err := s.DoctorSites(ctx, owner, service.SitesDoctorRequest{Sites: []string{"chatgpt"}})
			if err == nil && (!rep.OK || len(rep.Sites) != 1 || rep.Sites[0].Opened) {
				t.Errorf("the check of the job's tab: %+v", rep)
			}
			return rep, err
		}},
	}
	for _, tc := range same {
		t.Run(tc.name+" is the same either way", func(t *testing.T) {
			l, lerr := tc.call(local)
			r, rerr := tc.call(remote)
			if lerr != nil || rerr != nil {
				t.Fatalf("in-process %v, remote %v", lerr, rerr)
			}
			lb, _ := json.Marshal(l)
			rb, _ := json.Marshal(r)
			if string(lb) != string(rb) {
				t.Fatalf("in-process %s\nremote     %s", lb, rb)
			}
		})
	}

	t.Run("an agent's job waits for the owner's approval", func(t *testing.T) {
		info, token, err := o.register(ctx, "remote agent")
		if err != nil {
			t.Fatal(err)
		}
		agent := client.NewService(client.New(client.NewEndpoint(ep.Port, token)))
		hello, err := agent.Hello(ctx, service.Agent(info.ID), service.HelloRequest{})
		if err != nil || hello.Caller != service.Agent(info.ID) {
			t.Fatalf("hello %+v %v", hello, err)
		}
		aj, err := agent.SubmitJob(ctx, service.Agent(info.ID), service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "An agent asks"})
		if err != nil || aj.State != service.StateAwaitingApproval {
			t.Fatalf("%+v %v", aj, err)
		}
		aps, err := remote.ListApprovals(ctx, owner, service.ListApprovalsRequest{})
		if err != nil || len(aps) != 1 || aps[0].JobID != aj.ID || aps[0].ClientName != "remote agent" {
			t.Fatalf("approvals %+v %v", aps, err)
		}
		if _, err := remote.Approve(ctx, owner, service.ApprovalRef{JobID: aj.ID}); err != nil {
			t.Fatal(err)
		}
		done, err := agent.WatchJob(ctx, service.Agent(info.ID), service.WatchRequest{ID: aj.ID}, nil)
		if err != nil || done.State != string(job.StateDone) || done.Detail.Run.Origin != job.OriginAgent {
			t.Fatalf("agent's job %+v %v", done, err)
		}
	})
}
