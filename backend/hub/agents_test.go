package hub_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestEnsureAgentMakesOneClientPerNameAndKind(t *testing.T) {
	th := startHub(t)
	ensure := func(name string) hub.ClientInfo {
		t.Helper()
		var info hub.ClientInfo
		r := th.do(t, req{method: "POST", path: "/v1/clients/agents", token: th.file.Token,
			body: service.EnsureAgentRequest{Name: name, Kind: service.AgentKindMCP}})
		if r.status != 200 {
			t.Fatalf("ensure %q: %d %s", name, r.status, r.body)
		}
		r.decode(t, &info)
		return info
	}
	a, again, b := ensure("claude-code"), ensure("claude-code"), ensure("codex")
	if a.ID == "" || a.ID != again.ID || a.Kind != service.AgentKindMCP || a.Name != "claude-code" {
		t.Fatalf("ensure twice: %+v then %+v, want one mcp client named claude-code", a, again)
	}
	if b.ID == a.ID {
		t.Fatalf("two names share client %s", a.ID)
	}
	var list []hub.ClientInfo
	th.do(t, req{path: "/v1/clients", token: th.file.Token}).decode(t, &list)
	if len(list) != 2 {
		t.Fatalf("clients %+v, want 2", list)
	}
	_, tok := th.pairClient(t, "agent")
	if r := th.do(t, req{method: "POST", path: "/v1/clients/agents", token: tok,
		body: service.EnsureAgentRequest{Name: "x", Kind: service.AgentKindMCP}}); r.status != 403 || r.envelope(t).Code != errs.HubForbidden {
		t.Fatalf("an agent ensured a client: %d %s", r.status, r.body)
	}
	if r := th.do(t, req{method: "POST", path: "/v1/clients/agents", token: th.file.Token,
		body: service.EnsureAgentRequest{Name: "x", Kind: "other"}}); r.status != 400 || r.envelope(t).Code != errs.BadInput {
		t.Fatalf("an unknown kind was accepted: %d %s", r.status, r.body)
	}
}

func TestOwnerTokenActsAsAnAgentClient(t *testing.T) {
	th := startHub(t)
	info, err := th.backend.EnsureAgent(context.Background(), service.Owner(service.FaceCLI), service.EnsureAgentRequest{Name: "claude-code", Kind: service.AgentKindMCP})
	if err != nil {
		t.Fatal(err)
	}
	as := map[string]string{hub.ActAsHeader: info.ID}
	var who hub.WhoAmI
	if r := th.do(t, req{path: "/v1/whoami", token: th.file.Token, header: as}); r.status != 200 {
		t.Fatalf("whoami acting as %s: %d %s", info.ID, r.status, r.body)
	} else {
		r.decode(t, &who)
	}
	if who.Owner || who.ClientID != info.ID {
		t.Fatalf("acting as %s the hub took the request for %+v", info.ID, who)
	}
	var job hub.Job
	r := th.do(t, req{method: "POST", path: "/v1/jobs", token: th.file.Token, header: as,
		body: service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hi"}})
	if r.status >= 300 {
		t.Fatalf("create job acting as agent: %d %s", r.status, r.body)
	}
	r.decode(t, &job)
	if job.State != service.StateAwaitingApproval || job.RequestedBy != info.ID {
		t.Fatalf("job %+v, want awaiting approval, requested by %s", job, info.ID)
	}

	selfID, tok := th.pairClient(t, "agent")
	if r := th.do(t, req{path: "/v1/whoami", token: tok, header: map[string]string{hub.ActAsHeader: selfID}}); r.status != 200 {
		t.Fatalf("a paired client naming itself: %d %s", r.status, r.body)
	}
	if r := th.do(t, req{path: "/v1/whoami", token: tok, header: as}); r.status != 403 || r.envelope(t).Code != errs.HubForbidden {
		t.Fatalf("an agent token acted as another client: %d %s", r.status, r.body)
	}
	if r := th.do(t, req{path: "/v1/whoami", token: th.file.Token, header: map[string]string{hub.ActAsHeader: "c_000000000000"}}); r.status != 401 || r.envelope(t).Code != errs.HubUnauthorized {
		t.Fatalf("acting as an unknown client: %d %s", r.status, r.body)
	}
	th.revoke(t, info.ID)
	if r := th.do(t, req{path: "/v1/whoami", token: th.file.Token, header: as}); r.status != 401 || r.envelope(t).Code != errs.HubUnauthorized {
		t.Fatalf("acting as a revoked client: %d %s", r.status, r.body)
	}
	again, err := th.backend.EnsureAgent(context.Background(), service.Owner(service.FaceCLI), service.EnsureAgentRequest{Name: "claude-code", Kind: service.AgentKindMCP})
	if err != nil || again.ID != info.ID || again.RevokedAt == nil {
		t.Fatalf("ensure after revocation: %+v, %v; want the same client, revoked", again, err)
	}
}

func TestRemoteServiceActsAsTheAgentItIsCalledWith(t *testing.T) {
	th := startHub(t)
	svc := client.NewService(client.New(client.NewEndpoint(th.file.Port, th.file.Token)))
	ctx := context.Background()
	info, err := svc.EnsureAgent(ctx, service.Owner(service.FaceMCP), service.EnsureAgentRequest{Name: "cursor", Kind: service.AgentKindMCP})
	if err != nil {
		t.Fatal(err)
	}
	hello, err := svc.Hello(ctx, service.Agent(info.ID), service.HelloRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if hello.Caller != service.Agent(info.ID) {
		t.Fatalf("hello as agent %s answered caller %+v", info.ID, hello.Caller)
	}
	j, err := svc.SubmitJob(ctx, service.Agent(info.ID), service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if j.RequestedBy != info.ID || j.State != service.StateAwaitingApproval {
		t.Fatalf("job %+v, want the agent's, awaiting approval", j)
	}
	if hello, err = svc.Hello(ctx, service.Owner(service.FaceCLI), service.HelloRequest{}); err != nil || !hello.Caller.IsOwner() {
		t.Fatalf("hello as the owner: %+v, %v", hello.Caller, err)
	}
	if _, err := svc.EnsureAgent(ctx, service.Agent(info.ID), service.EnsureAgentRequest{Name: "x", Kind: service.AgentKindMCP}); !errs.Has(err, errs.HubForbidden) {
		t.Fatalf("an agent ensured a client: %v", err)
	}
}

func TestSitesAndTabStatesReachTheServiceForEveryCaller(t *testing.T) {
	th := startHub(t)
	_, tok := th.pairClient(t, "agent")
	for _, path := range []string{"/v1/sites", "/v1/tabs/states"} {
		// What an agent may see of them the service decides (core's scope
		// test holds it); the fake backend is no owner process: it answers
		// what a remote implementation would, and the hub passes that on
		// unchanged, to the agent as to the owner.
		for _, who := range []string{tok, th.file.Token} {
			if r := th.do(t, req{path: path, token: who}); r.envelope(t).Code != errs.CapabilityMissing {
				t.Fatalf("read %s: %d %s", path, r.status, r.body)
			}
		}
	}
}

func TestTheLiveCheckOfTheSitesIsTheOwnersOnly(t *testing.T) {
	th := startHub(t)
	_, tok := th.pairClient(t, "agent")
	body := service.SitesDoctorRequest{Sites: []string{"chatgpt"}}
	if r := th.do(t, req{method: http.MethodPost, path: "/v1/sites/doctor", token: tok, body: body}); r.status != 403 || r.envelope(t).Code != errs.HubForbidden {
		t.Fatalf("an agent checked the sites: %d %s", r.status, r.body)
	}
	// The owner's request reaches the backend, whose answer is passed on.
	if r := th.do(t, req{method: http.MethodPost, path: "/v1/sites/doctor", token: th.file.Token, body: body}); r.envelope(t).Code != errs.BadInput || !strings.Contains(r.envelope(t).Message, "check the sites") {
		t.Fatalf("the owner checked the sites: %d %s", r.status, r.body)
	}
}

func TestTabActionsAreTheOwnersOnly(t *testing.T) {
	th := startHub(t)
	_, tok := th.pairClient(t, "agent")
	body := service.TabActionRequest{TargetID: "T1", Action: service.TabActionShow}
	if r := th.do(t, req{method: http.MethodPost, path: "/v1/tabs/action", token: tok, body: body}); r.status != 403 || r.envelope(t).Code != errs.HubForbidden {
		t.Fatalf("an agent acted on a tab: %d %s", r.status, r.body)
	}
	// The fake backend is no owner process: it answers what a remote
	// implementation would, and the hub passes that on unchanged.
	if r := th.do(t, req{method: http.MethodPost, path: "/v1/tabs/action", token: th.file.Token, body: body}); r.envelope(t).Code != errs.CapabilityMissing {
		t.Fatalf("the owner acted on a tab: %d %s", r.status, r.body)
	}
}
