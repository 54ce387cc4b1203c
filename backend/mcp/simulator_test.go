package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/mcp"
	"github.com/ferrydesk/ferry/backend/mcp/mcptest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// slow is an answer that streams for several seconds at the harness's
// pace.
var slow = sim.Scenario{Name: sim.ScenarioLong, Params: map[string]string{"size": "6000"}}

// jobOf decodes a job result, failing t on an error result.
func jobOf(t *testing.T, res *mcpsdk.CallToolResult) mcp.JobResult {
	t.Helper()
	if res.IsError {
		t.Fatalf("error result: %s", mcptest.Text(res))
	}
	var r mcp.JobResult
	mcptest.Decode(t, res, &r)
	return r
}

// untilDone polls the job tool until the job ends.
func untilDone(t *testing.T, ctx context.Context, cs *mcpsdk.ClientSession, id string) mcp.JobResult {
	t.Helper()
	for i := 0; i < 20; i++ {
		r := jobOf(t, mcptest.Call(t, ctx, cs, "job", map[string]any{"job_id": id, "wait_s": 30}))
		if r.Done {
			return r
		}
	}
	t.Fatalf("job %s did not end", id)
	return mcp.JobResult{}
}

// TestMCPAgainstTheSimulator drives the MCP server with an SDK client over
// in-memory transports against a real core, the simulator and headless
// Chromium: the agent's approval, ask, a short wait then job, progress,
// cancel, code with a verified zip in out_dir and its resource, retrieve,
// the agent's own runs only, a job read by the next server, and blocked
// sites failing with nothing sent.
func TestMCPAgainstTheSimulator(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	oc := mcptest.StartOwner(t, ctx)
	owner := service.Owner(service.FaceCLI)
	root := t.TempDir()
	srv := mcp.New(oc.Service, mcp.Options{Version: "test", OutRoots: func() []string { return []string{root} }})
	var progress atomic.Int64
	cs := mcptest.Connect(t, srv.SDK(), "claude-code", &mcpsdk.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcpsdk.ProgressNotificationClientRequest) { progress.Add(1) },
	})

	var agentID string
	t.Run("an agent's job waits for the user's approval, then runs", func(t *testing.T) {
		before := oc.Sim.SubmissionCount(sim.ChatGPT)
		r := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Approve me first"}))
		if r.State != service.StateAwaitingApproval || !r.AwaitingApproval || r.Done {
			t.Fatalf("ask before approval: %+v", r)
		}
		if again := jobOf(t, mcptest.Call(t, ctx, cs, "job", map[string]any{"job_id": r.JobID, "wait_s": 0})); !again.AwaitingApproval {
			t.Fatalf("job before approval: %+v", again)
		}
		if n := oc.Sim.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("%d prompts sent before the approval", n-before)
		}
		clients, err := oc.Service.ListClients(ctx, owner, service.ListClientsRequest{})
		if err != nil || len(clients) != 1 || clients[0].Name != "claude-code" || clients[0].Kind != service.AgentKindMCP {
			t.Fatalf("clients %+v, %v; want the one mcp agent claude-code", clients, err)
		}
		agentID = clients[0].ID
		if _, err := oc.Service.Approve(ctx, owner, service.ApprovalRef{JobID: r.JobID}); err != nil {
			t.Fatal(err)
		}
		done := untilDone(t, ctx, cs, r.JobID)
		if done.State != string(record.StateDone) || done.Answer == "" {
			t.Fatalf("approved job: %+v", done)
		}
		if _, err := oc.Service.SetAutoApprove(ctx, owner, service.AutoApproveRequest{ID: agentID, AutoApprove: true}); err != nil {
			t.Fatal(err)
		}
	})

	var askRun string
	t.Run("ask returns the answer", func(t *testing.T) {
		res := mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "What is a ferry?", "new_chat": true, "wait_s": 120})
		r := jobOf(t, res)
		if !r.Done || r.State != string(record.StateDone) || r.Answer == "" || r.Session == "" {
			t.Fatalf("ask: %+v", r)
		}
		mcptest.CheckOutput(t, ctx, cs, "ask", res)
		if !strings.Contains(mcptest.Text(res), r.Answer) {
			t.Fatalf("the text content lacks the answer: %s", mcptest.Text(res))
		}
		askRun = r.Session
	})

	t.Run("an agent attaches files from the folder the user allowed it", func(t *testing.T) {
		dir := t.TempDir()
		notes := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(notes, []byte("remember the milk\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if e := mcptest.Envelope(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Read it", "new_chat": true, "files": []string{notes}})); e.Code != errs.HubForbidden {
			t.Fatalf("files with no folder allowed: %+v, want hub_forbidden", e)
		}
		if _, err := oc.Service.SetFileRoots(ctx, service.Owner(service.FaceDesktop), service.FileRootsRequest{ID: agentID, Roots: []string{dir}}); err != nil {
			t.Fatal(err)
		}
		r := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Read the attached notes", "new_chat": true, "files": []string{notes}, "wait_s": 120}))
		if !r.Done || r.State != string(record.StateDone) {
			t.Fatalf("ask with a file: %+v", r)
		}
		subs := oc.Sim.Submissions(sim.ChatGPT)
		if last := subs[len(subs)-1]; last.Prompt != "Read the attached notes" || len(last.Attachments) != 1 || last.Attachments[0] != "notes.txt" {
			t.Fatalf("the site got %q with %v", last.Prompt, last.Attachments)
		}
	})

	t.Run("ask with session continues that run's conversation", func(t *testing.T) {
		first, err := oc.Service.ShowSession(ctx, service.Owner(service.FaceCLI), service.SessionRef{ID: askRun})
		if err != nil || first.Detail == nil || first.Detail.Session.ConversationURL == "" {
			t.Fatalf("the first run: %+v, %v", first, err)
		}
		// A new chat in between takes the agent's free tab, which then
		// shows another conversation: the follow-up goes back to its own.
		other := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Something else entirely", "wait_s": 120}))
		if !other.Done || other.Conversation == "" || other.Conversation == first.Detail.Session.ConversationURL {
			t.Fatalf("the new chat in between: %+v", other)
		}
		r := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"prompt": "And a follow-up?", "session": askRun, "wait_s": 120}))
		if !r.Done || r.State != string(record.StateDone) || r.Conversation != first.Detail.Session.ConversationURL {
			t.Fatalf("follow-up %+v, want it done in %s", r, first.Detail.Session.ConversationURL)
		}
		if e := mcptest.Envelope(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"prompt": "Both?", "session": askRun, "new_chat": true})); e.Code != errs.BadInput {
			t.Fatalf("session with new_chat: %+v, want bad_input", e)
		}
	})

	t.Run("a short wait returns running, then job follows it to its end with progress", func(t *testing.T) {
		oc.Sim.SetScenario(sim.ChatGPT, slow)
		defer oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		start := time.Now()
		r := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Tell me a long story", "new_chat": true, "wait_s": 1}))
		if r.State != mcp.StateRunning || r.Done || r.JobID == "" {
			t.Fatalf("ask with wait_s 1: %+v", r)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Fatalf("ask with wait_s 1 took %s", took)
		}
		before := progress.Load()
		params := &mcpsdk.CallToolParams{Name: "job", Arguments: map[string]any{"job_id": r.JobID, "wait_s": 120}}
		params.SetProgressToken("follow")
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		done := jobOf(t, res)
		if !done.Done {
			done = untilDone(t, ctx, cs, r.JobID)
		}
		if done.State != string(record.StateDone) || done.Answer == "" {
			t.Fatalf("job: %+v", done)
		}
		if progress.Load() == before {
			t.Fatal("no progress notification while the job tool waited")
		}
	})

	t.Run("cancel stops a job", func(t *testing.T) {
		oc.Sim.SetScenario(sim.ChatGPT, slow)
		defer oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		r := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Cancel me", "new_chat": true, "wait_s": 0}))
		if r.Done {
			t.Fatalf("ask with wait_s 0 ended: %+v", r)
		}
		jobOf(t, mcptest.Call(t, ctx, cs, "cancel", map[string]any{"job_id": r.JobID}))
		if done := untilDone(t, ctx, cs, r.JobID); done.State != string(record.StateCancelled) {
			t.Fatalf("cancelled job: %+v", done)
		}
	})

	var zip mcp.Zip
	var conv string
	t.Run("code returns a verified zip, copied into out_dir", func(t *testing.T) {
		oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioCodeZip})
		defer oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		out := filepath.Join(root, "zips")
		res := mcptest.Call(t, ctx, cs, "code", map[string]any{"task": "Write hello.py", "zip": "one", "out_dir": out, "wait_s": 240})
		r := jobOf(t, res)
		mcptest.CheckOutput(t, ctx, cs, "code", res)
		if !r.Done || r.Receipt == nil || !r.Receipt.OK || len(r.Zips) != 1 {
			t.Fatalf("code: %+v", r)
		}
		zip, conv = r.Zips[0], r.Receipt.ConversationID
		if !zip.Verified || zip.Verdict != "verified" || len(zip.SHA256) != 64 || filepath.Dir(zip.Path) != out {
			t.Fatalf("zip %+v, want verified and saved in %s", zip, out)
		}
		if _, err := os.Stat(zip.Path); err != nil {
			t.Fatal(err)
		}
		rr, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: zip.Resource})
		if err != nil {
			t.Fatalf("read %s: %v", zip.Resource, err)
		}
		var info mcp.ArtifactInfo
		if err := json.Unmarshal([]byte(rr.Contents[0].Text), &info); err != nil {
			t.Fatal(err)
		}
		if info.SHA256 != zip.SHA256 || len(info.Files) == 0 || info.Site != sim.ChatGPT || info.Session == "" {
			t.Fatalf("artifact resource %+v", info)
		}
	})

	t.Run("retrieve brings the conversation's zips home again", func(t *testing.T) {
		if conv == "" {
			t.Fatal("no conversation from the code job: the code subtest above failed, and retrieve needs its conversation")
		}
		before := oc.Sim.SubmissionCount(sim.ChatGPT)
		res := mcptest.Call(t, ctx, cs, "retrieve", map[string]any{"conversation": conv, "out_dir": filepath.Join(root, "again")})
		if res.IsError {
			t.Fatalf("retrieve: %s", mcptest.Text(res))
		}
		var r mcp.RetrieveResult
		mcptest.Decode(t, res, &r)
		mcptest.CheckOutput(t, ctx, cs, "retrieve", res)
		if !r.OK || len(r.Zips) == 0 || !r.Zips[0].Verified || r.Zips[0].SHA256 != zip.SHA256 {
			t.Fatalf("retrieve: %+v", r)
		}
		if n := oc.Sim.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("retrieve sent %d prompts", n-before)
		}
		other := mcptest.Connect(t, srv.SDK(), "another-agent", nil)
		if e := mcptest.Envelope(t, mcptest.Call(t, ctx, other, "retrieve", map[string]any{"conversation": conv})); e.Code != errs.HubForbidden {
			t.Fatalf("another agent retrieved the conversation: %+v", e)
		}
	})

	t.Run("sessions and session show the agent's own runs only", func(t *testing.T) {
		oj, err := oc.Service.SubmitJob(ctx, owner, service.JobRequest{Kind: service.KindAsk, Site: sim.ChatGPT, Prompt: "The owner's own question", NewChat: true})
		if err != nil {
			t.Fatal(err)
		}
		oj, err = oc.Service.WatchJob(ctx, owner, service.WatchRequest{ID: oj.ID}, nil)
		if err != nil || oj.Detail == nil || oj.Detail.Session == "" {
			t.Fatalf("owner's job: %+v, %v", oj, err)
		}
		var list mcp.SessionsResult
		listed := mcptest.Call(t, ctx, cs, "sessions", map[string]any{"limit": 100})
		mcptest.Decode(t, listed, &list)
		mcptest.CheckOutput(t, ctx, cs, "sessions", listed)
		seen := map[string]bool{}
		for _, s := range list.Sessions {
			seen[s.ID] = true
		}
		if !seen[askRun] || seen[oj.Detail.Session] {
			t.Fatalf("sessions %v: want the agent's run %s and not the owner's %s", seen, askRun, oj.Detail.Session)
		}
		res := mcptest.Call(t, ctx, cs, "session", map[string]any{"id": askRun})
		var one mcp.SessionResult
		mcptest.Decode(t, res, &one)
		mcptest.CheckOutput(t, ctx, cs, "session", res)
		if one.ID != askRun || !strings.Contains(one.Markdown, "What is a ferry?") || one.Session == nil || one.Session.Session == nil {
			t.Fatalf("session: %+v", one)
		}
		if e := mcptest.Envelope(t, mcptest.Call(t, ctx, cs, "session", map[string]any{"id": oj.Detail.Session})); e.Code != errs.SessionNotFound && e.Code != errs.HubNotFound {
			t.Fatalf("the owner's run: %+v, want not found", e)
		}
		rr, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: "ferry://session/" + askRun})
		if err != nil || !strings.Contains(rr.Contents[0].Text, "What is a ferry?") {
			t.Fatalf("session resource: %+v, %v", rr, err)
		}
		var none mcp.SessionsResult
		other := mcptest.Connect(t, srv.SDK(), "codex", nil)
		mcptest.Decode(t, mcptest.Call(t, ctx, other, "sessions", nil), &none)
		if len(none.Sessions) != 0 {
			t.Fatalf("another agent sees %+v", none.Sessions)
		}
	})

	t.Run("a job is read by the next MCP server of the same agent", func(t *testing.T) {
		r := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Read me later", "new_chat": true, "wait_s": 0}))
		next := mcptest.Connect(t, mcp.New(oc.Service, mcp.Options{}).SDK(), "claude-code", nil)
		if done := untilDone(t, ctx, next, r.JobID); done.State != string(record.StateDone) || done.Answer == "" {
			t.Fatalf("job read by the next server: %+v", done)
		}
		other := mcptest.Connect(t, mcp.New(oc.Service, mcp.Options{}).SDK(), "gemini-cli", nil)
		if e := mcptest.Envelope(t, mcptest.Call(t, ctx, other, "job", map[string]any{"job_id": r.JobID})); e.Code != errs.HubNotFound {
			t.Fatalf("another agent read the job: %+v", e)
		}
	})

	t.Run("a code job's out_dir is filled by the next server when the first is gone", func(t *testing.T) {
		oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioCodeZip})
		defer oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		pending, out := t.TempDir(), filepath.Join(root, "later")
		opts := mcp.Options{OutRoots: func() []string { return []string{root} }, PendingDir: pending}
		first := mcptest.Connect(t, mcp.New(oc.Service, opts).SDK(), "claude-code", nil)
		r := jobOf(t, mcptest.Call(t, ctx, first, "code", map[string]any{"task": "Write later.py", "zip": "one", "out_dir": out, "wait_s": 0}))
		if r.Done || r.JobID == "" {
			t.Fatalf("code with wait_s 0: %+v", r)
		}
		next := mcptest.Connect(t, mcp.New(oc.Service, opts).SDK(), "claude-code", nil)
		done := untilDone(t, ctx, next, r.JobID)
		if len(done.Zips) != 1 || !done.Zips[0].Verified || filepath.Dir(done.Zips[0].Path) != out {
			t.Fatalf("the job read by the next server: %+v, want its zip copied into %s", done, out)
		}
		if _, err := os.Stat(done.Zips[0].Path); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(pending); len(left) != 0 {
			t.Fatalf("pending out_dirs left behind: %v", left)
		}
	})

	for _, blocked := range []struct {
		scenario string
		code     errs.Code
	}{{sim.ScenarioLoggedOut, errs.LoginRequired}, {sim.ScenarioCloudflare, errs.CloudflareChallenge}} {
		t.Run("a blocked site is an error result with nothing sent: "+blocked.scenario, func(t *testing.T) {
			oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: blocked.scenario})
			defer oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
			before := oc.Sim.SubmissionCount(sim.ChatGPT)
			res := mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Blocked?", "new_chat": true, "wait_s": 120})
			e := mcptest.Envelope(t, res)
			if e.Code != blocked.code || e.Evidence["job_id"] == "" {
				t.Fatalf("envelope %+v, want %s naming the job", e, blocked.code)
			}
			if !strings.Contains(mcptest.Text(res), string(blocked.code)) {
				t.Fatalf("text %q does not name the code", mcptest.Text(res))
			}
			if n := oc.Sim.SubmissionCount(sim.ChatGPT); n != before {
				t.Fatalf("%d prompts sent to a blocked site", n-before)
			}
		})
	}
}

// TestMCPThroughTheGateway: with an owner running, the MCP server works as
// a client of its gateway holding the owner's token: it acts as its agent
// client (the job waits for the user's approval, listed under the agent's
// name), the owner approves, the job tool follows it to the answer, and
// the site registry comes over the wire.
func TestMCPThroughTheGateway(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	oc := mcptest.StartOwner(t, ctx)
	var gw *hub.Server
	err := oc.Jobs.Serve(ctx, func(ctx context.Context, svc service.Gateway) (func(context.Context) error, error) {
		srv, err := hub.Serve(ctx, svc, hub.WithHubFile(oc.Core.Paths().HubFile()))
		if err != nil {
			return nil, err
		}
		gw = srv
		return srv.Close, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		gw.Close(cctx)
	})
	ep, err := client.Discover(ctx, oc.Core.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	remote := client.NewService(client.New(ep))
	cs := mcptest.Connect(t, mcp.New(remote, mcp.Options{}).SDK(), "claude-code", nil)

	var sites mcp.SitesResult
	res := mcptest.Call(t, ctx, cs, "sites", nil)
	mcptest.Decode(t, res, &sites)
	mcptest.CheckOutput(t, ctx, cs, "sites", res)
	mcptest.CheckOutput(t, ctx, cs, "templates", mcptest.Call(t, ctx, cs, "templates", nil))
	found := false
	for _, s := range sites.Sites {
		found = found || (s.ID == sim.ChatGPT && s.Code)
	}
	if !found {
		t.Fatalf("sites %+v lack chatgpt with code zips", sites.Sites)
	}

	before := oc.Sim.SubmissionCount(sim.ChatGPT)
	r := jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Through the gateway", "new_chat": true}))
	if !r.AwaitingApproval {
		t.Fatalf("ask through the gateway: %+v, want it awaiting approval", r)
	}
	owner := service.Owner(service.FaceCLI)
	aps, err := remote.ListApprovals(ctx, owner, service.ListApprovalsRequest{})
	if err != nil || len(aps) != 1 || aps[0].JobID != r.JobID || aps[0].ClientName != "claude-code" {
		t.Fatalf("approvals %+v, %v; want the job under the agent's name", aps, err)
	}
	if n := oc.Sim.SubmissionCount(sim.ChatGPT); n != before {
		t.Fatalf("%d prompts sent before the approval", n-before)
	}
	if _, err := remote.Approve(ctx, owner, service.ApprovalRef{JobID: r.JobID}); err != nil {
		t.Fatal(err)
	}
	if done := untilDone(t, ctx, cs, r.JobID); done.State != string(record.StateDone) || done.Answer == "" {
		t.Fatalf("approved job: %+v", done)
	}

	if _, err := remote.SetAutoApprove(ctx, owner, service.AutoApproveRequest{ID: aps[0].ClientID, AutoApprove: true}); err != nil {
		t.Fatal(err)
	}
	oc.Sim.SetScenario(sim.ChatGPT, slow)
	defer oc.Sim.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
	r = jobOf(t, mcptest.Call(t, ctx, cs, "ask", map[string]any{"site": "chatgpt", "prompt": "Slowly, through the gateway", "new_chat": true, "wait_s": 1}))
	if r.State != mcp.StateRunning || r.AwaitingApproval {
		t.Fatalf("auto-approved ask with wait_s 1: %+v", r)
	}
	if done := untilDone(t, ctx, cs, r.JobID); done.State != string(record.StateDone) || done.Answer == "" {
		t.Fatalf("job through the gateway: %+v", done)
	}
}
