package hub_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

func isEvent(typ string) func(hub.WSMessage) bool {
	return func(m hub.WSMessage) bool { return m.Type == hub.WSEvent && m.Event.Type == typ }
}

func TestAgentJobsWaitForTheUsersApproval(t *testing.T) {
	th := startHub(t)
	_, tok := th.pairClient(t, "agent")
	agentWS, _, err := th.dialWS(t, tok, nil)
	if err != nil {
		t.Fatal(err)
	}
	ownerWS, _, err := th.dialWS(t, th.file.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	readWS(t, agentWS, 5*time.Second)
	readWS(t, ownerWS, 5*time.Second)

	var job hub.Job
	r := th.do(t, req{method: "POST", path: "/v1/jobs", token: tok, body: hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Prompt: "build   the\nzip", RequestedBy: "owner"}})
	r.decode(t, &job)
	if r.status != 201 || job.State != hub.StateAwaitingApproval {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	specs := th.backend.createdSpecs()
	if !th.backend.createOpts()[0].AwaitApproval || specs[0].RequestedBy == "owner" || specs[0].RequestedBy == "" {
		t.Fatalf("backend got %+v %+v: want AwaitApproval and the real client id", th.backend.opts[0], specs[0])
	}

	for _, c := range []struct {
		who  string
		conn *websocket.Conn
	}{{"the agent", agentWS}, {"the owner", ownerWS}} {
		m := readUntil(t, c.conn, 5*time.Second, isEvent(hub.EventApprovalRequested))
		ap, _ := m.Event.Approval()
		if m.Event.JobID != job.ID || ap.ClientName != "agent" || ap.Summary != "build the zip" {
			t.Fatalf("%s got %+v %+v", c.who, m.Event, ap)
		}
	}

	var pending []hub.Approval
	th.do(t, req{path: "/v1/approvals", token: th.file.Token}).decode(t, &pending)
	if len(pending) != 1 || pending[0].JobID != job.ID || pending[0].Kind != hub.KindCode {
		t.Fatalf("approvals %+v", pending)
	}
	if r := th.do(t, req{method: "POST", path: "/v1/approvals/" + job.ID + "/approve", token: tok}); r.status != 403 {
		t.Fatalf("the agent approved its own job: %d", r.status)
	}
	r = th.do(t, req{method: "POST", path: "/v1/approvals/" + job.ID + "/approve", token: th.file.Token})
	r.decode(t, &job)
	if r.status != 200 || job.State != "running" || len(th.backend.approvedIDs()) != 1 {
		t.Fatalf("approve: %d %s", r.status, r.body)
	}
	m := readUntil(t, agentWS, 5*time.Second, isEvent(hub.EventApprovalResolved))
	var d hub.Decision
	if m.Event.Data != nil && m.Event.Data.Decision != nil {
		d = *m.Event.Data.Decision
	}
	if !d.Approved || d.JobID != job.ID {
		t.Fatalf("decision %+v", d)
	}
	if r := th.do(t, req{method: "POST", path: "/v1/approvals/" + job.ID + "/approve", token: th.file.Token}); r.status != 404 {
		t.Fatalf("a second approval: %d", r.status)
	}

	t.Run("a rejected job never runs", func(t *testing.T) {
		var j hub.Job
		th.do(t, req{method: "POST", path: "/v1/jobs", token: tok, body: hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "x"}}).decode(t, &j)
		r := th.do(t, req{method: "POST", path: "/v1/approvals/" + j.ID + "/reject", token: th.file.Token, body: hub.RejectRequest{Reason: "not now"}})
		if r.status != 200 || th.backend.rejectReason(j.ID) != "not now" {
			t.Fatalf("reject: %d %s", r.status, r.body)
		}
		if got, _ := th.backend.job(j.ID); got.State != "failed" {
			t.Fatalf("state %s", got.State)
		}
	})

	t.Run("an auto-approve client's jobs run at once", func(t *testing.T) {
		id, tok2 := th.pairClient(t, "trusted")
		if r := th.do(t, req{method: "POST", path: "/v1/clients/" + id + "/settings", token: th.file.Token, body: map[string]bool{"autoApprove": true}}); r.status != 200 {
			t.Fatalf("settings: %d %s", r.status, r.body)
		}
		var j hub.Job
		th.do(t, req{method: "POST", path: "/v1/jobs", token: tok2, body: hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "x"}}).decode(t, &j)
		if aps := th.approvals(t); j.State != "running" || len(aps) != 0 {
			t.Fatalf("job %+v, approvals %v", j, aps)
		}
	})

	t.Run("the owner's jobs run at once", func(t *testing.T) {
		var j hub.Job
		th.do(t, req{method: "POST", path: "/v1/jobs", token: th.file.Token, body: hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "x"}}).decode(t, &j)
		if j.State != "running" {
			t.Fatalf("job %+v", j)
		}
	})

	t.Run("cancelling a waiting job withdraws its approval", func(t *testing.T) {
		var j hub.Job
		th.do(t, req{method: "POST", path: "/v1/jobs", token: tok, body: hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "y"}}).decode(t, &j)
		if r := th.do(t, req{method: "POST", path: "/v1/jobs/" + j.ID + "/cancel", token: tok}); r.status != 200 {
			t.Fatalf("cancel: %d", r.status)
		}
		for _, ap := range th.approvals(t) {
			if ap.JobID == j.ID {
				t.Fatal("the cancelled job still awaits approval")
			}
		}
	})
}

// approvals lists the jobs awaiting approval over the owner's route.
func (th *testHub) approvals(t *testing.T) []hub.Approval {
	t.Helper()
	var out []hub.Approval
	th.do(t, req{path: "/v1/approvals", token: th.file.Token}).decode(t, &out)
	return out
}

func TestClientsSeeOnlyTheirOwnJobsAndEvents(t *testing.T) {
	th := startHub(t)
	idA, tokA := th.pairClient(t, "a")
	_, tokB := th.pairClient(t, "b")
	var job hub.Job
	th.do(t, req{method: "POST", path: "/v1/jobs", token: tokA, body: hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "secret question"}}).decode(t, &job)

	if r := th.do(t, req{path: "/v1/jobs/" + job.ID, token: tokB}); r.status != 404 {
		t.Fatalf("b read a's job: %d", r.status)
	}
	if r := th.do(t, req{method: "POST", path: "/v1/jobs/" + job.ID + "/cancel", token: tokB}); r.status != 404 {
		t.Fatalf("b cancelled a's job: %d", r.status)
	}
	if r := th.do(t, req{path: "/v1/jobs/" + job.ID, token: tokA}); r.status != 200 {
		t.Fatalf("a reads its job: %d", r.status)
	}
	if r := th.do(t, req{path: "/v1/jobs/" + job.ID, token: th.file.Token}); r.status != 200 {
		t.Fatalf("the owner reads any job: %d", r.status)
	}

	wsA, _, _ := th.dialWS(t, tokA, nil)
	wsB, _, _ := th.dialWS(t, tokB, nil)
	readWS(t, wsA, 5*time.Second)
	readWS(t, wsB, 5*time.Second)
	th.backend.events <- hub.Event{Type: hub.EventRunPartial, JobID: job.ID, ClientID: idA, Data: &hub.EventData{Run: &service.RunEvent{Kind: "partial", Partial: &record.Partial{Text: "partial"}}}}
	th.backend.events <- hub.Event{Type: hub.EventRunUpdate, JobID: "job-other", ClientID: "c_someoneelse", Data: &hub.EventData{Run: &service.RunEvent{Kind: "state", State: "streaming"}}}
	m := readUntil(t, wsA, 5*time.Second, isEvent(hub.EventRunPartial))
	if m.Event.JobID != job.ID || m.Event.Data == nil || m.Event.Data.Run == nil || m.Event.Data.Run.Partial == nil || m.Event.Data.Run.Partial.Text != "partial" || m.Event.Seq == 0 {
		t.Fatalf("a got %+v", m.Event)
	}
	// b must see neither event: a heartbeat-free stream stays silent.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, data, err := wsB.Read(ctx); err == nil {
		t.Fatalf("b received %s", data)
	}
}

func TestRoutesServeTheBackend(t *testing.T) {
	th := startHub(t)
	owner := th.file.Token
	var sessions []hub.SessionSummary
	if r := th.do(t, req{path: "/v1/sessions?site=gemini&limit=5", token: owner}); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	} else {
		r.decode(t, &sessions)
	}
	if len(sessions) != 1 || sessions[0].ID != "s2" {
		t.Fatalf("sessions %+v", sessions)
	}
	th.do(t, req{path: "/v1/sessions/search?q=zip", token: owner}).decode(t, &sessions)
	if len(sessions) != 1 || sessions[0].ID != "s1" {
		t.Fatalf("search %+v", sessions)
	}
	var sess hub.Session
	th.do(t, req{path: "/v1/sessions/s1", token: owner}).decode(t, &sess)
	if sess.Title != "zip builder" {
		t.Fatalf("show %+v", sess)
	}
	cases := []struct {
		name   string
		path   string
		status int
		code   errs.Code
	}{
		{"a missing session is 404 with the backend's code", "/v1/sessions/nope", 404, errs.SessionNotFound},
		{"a search without words is a clear 400", "/v1/sessions/search?q=", 400, errs.BadInput},
		{"a bad limit is a clear 400", "/v1/sessions?limit=0", 400, errs.BadInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := th.do(t, req{path: c.path, token: owner})
			if r.status != c.status || r.envelope(t).Code != c.code {
				t.Fatalf("%d %s", r.status, r.body)
			}
		})
	}
	t.Run("a job with a misspelt field is refused, naming it", func(t *testing.T) {
		r := th.do(t, req{method: "POST", path: "/v1/jobs", token: owner, body: map[string]string{"kind": "ask", "promt": "x"}})
		if r.status != 400 || !strings.Contains(r.envelope(t).Message, "promt") {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
	t.Run("a job of an unknown kind is refused", func(t *testing.T) {
		r := th.do(t, req{method: "POST", path: "/v1/jobs", token: owner, body: hub.JobSpec{Kind: "paint", Prompt: "x"}})
		if r.status != 400 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
	t.Run("a verified artifact downloads with its digest", func(t *testing.T) {
		th.do(t, req{method: "POST", path: "/v1/jobs", token: owner, body: hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Prompt: "x"}})
		r := th.do(t, req{path: "/v1/jobs/job-1/artifacts/out.zip", token: owner})
		if r.status != 200 || r.header.Get("Content-Type") != "application/zip" || string(r.body) != string(th.backend.artifacts["job-1/out.zip"]) || r.header.Get("X-Ferry-Sha256") == "" {
			t.Fatalf("%d %v", r.status, r.header)
		}
	})
	t.Run("an unverified artifact is not served", func(t *testing.T) {
		th.backend.setVerified(false)
		defer th.backend.setVerified(true)
		r := th.do(t, req{path: "/v1/jobs/job-1/artifacts/out.zip", token: owner})
		if r.status != 409 || r.envelope(t).Code != errs.ArtifactUnsafe {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
}

func TestTheHubFileIsPrivateAndGoesAwayOnClose(t *testing.T) {
	th := startHub(t)
	if err := config.CheckPrivate(th.path); err != nil {
		t.Fatalf("hub file: %v, want it readable by its owner only", err)
	}
	if th.file.Port != th.srv.Port() || th.file.PID != os.Getpid() || th.file.StartedAt.IsZero() {
		t.Fatalf("hub file %v", th.file)
	}
	if len(th.file.Token) < 43 || strings.Contains(th.file.String(), th.file.Token) || strings.Contains(fmtGo(th.file), th.file.Token) {
		t.Fatal("the token is too short or printed by String/GoString")
	}
	leftovers, _ := os.ReadDir(strings.TrimSuffix(th.path, "hub.json"))
	if len(leftovers) != 1 {
		t.Fatalf("temporary files left beside the hub file: %v", leftovers)
	}

	t.Run("a second owner on the same file is refused", func(t *testing.T) {
		srv, _ := hub.New(newFakeBackend(t, time.Now), hub.WithHubFile(th.path))
		err := srv.Start(context.Background())
		if err == nil {
			srv.Close(context.Background())
		}
		if !errs.Has(err, errs.StoreBusy) {
			t.Fatalf("second Start: %v, want store_busy", err)
		}
		if f, _ := hubfile.Read(th.path); f.Token != th.file.Token {
			t.Fatal("the refused owner replaced the hub file")
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := th.srv.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := hubfile.Read(th.path); err == nil {
		t.Fatal("the hub file survived Close")
	}
}

func fmtGo(f hubfile.File) string { return f.GoString() }
