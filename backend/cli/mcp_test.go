package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// mcpProc is a `ferry mcp` child process with an MCP client session on its
// stdin and stdout; out holds every byte it wrote to stdout.
type mcpProc struct {
	cmd    *exec.Cmd
	cs     *mcpsdk.ClientSession
	out    *lockedBuffer
	stderr *lockedBuffer
	done   chan error
}

// startMCP runs `ferry mcp` on dataDir and initializes an MCP session with
// it as the client clientName.
func startMCP(t testing.TB, dataDir, clientName string, extra ...string) *mcpProc {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp", "--data-dir", dataDir}, extra...)...)
	cmd.Env = hermeticEnv(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &mcpProc{cmd: cmd, out: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tr := &mcpsdk.IOTransport{Reader: teeCloser{io.TeeReader(stdout, p.out), stdout}, Writer: stdin}
	p.cs, err = mcpsdk.NewClient(&mcpsdk.Implementation{Name: clientName, Version: "test"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		_ = cmd.Process.Kill()
		t.Fatalf("initialize ferry mcp: %v; stderr %s", err, p.stderr.String())
	}
	t.Cleanup(func() { p.close(t) })
	return p
}

type teeCloser struct {
	io.Reader
	io.Closer
}

// close ends the session (the server sees stdin close) and waits for a
// clean exit.
func (p *mcpProc) close(t testing.TB) {
	t.Helper()
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cs.Close()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("ferry mcp exited with %v; stderr %s", err, p.stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Errorf("ferry mcp did not stop when its stdin closed")
	}
}

// kill ends the process at once, as an agent's crash would.
func (p *mcpProc) kill(t testing.TB) {
	t.Helper()
	_ = p.cmd.Process.Kill()
	<-p.done
}

// call calls tool with args and decodes its structured content into out
// (when not nil); a protocol error fails t.
func (p *mcpProc) call(t testing.TB, tool string, args map[string]any, out any) *mcpsdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	res, err := p.cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v; stderr %s", tool, err, p.stderr.String())
	}
	if out != nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("decode %s result %s: %v", tool, raw, err)
		}
	}
	return res
}

// assertOnlyJSONRPC fails when stdout holds anything but JSON-RPC 2.0
// messages, one per line.
func assertOnlyJSONRPC(t testing.TB, stdout string) {
	t.Helper()
	if stdout == "" {
		t.Fatal("nothing on stdout")
	}
	for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line %d is not a JSON-RPC message: %q", i+1, line)
		}
	}
}

// mcpJob is the part of the job result these tests read.
type mcpJob struct {
	JobID            string         `json:"job_id"`
	State            string         `json:"state"`
	Done             bool           `json:"done"`
	AwaitingApproval bool           `json:"awaiting_approval"`
	Answer           string         `json:"answer"`
	Session          string         `json:"session"`
	Error            *errs.Envelope `json:"error"`
}

// ownerAPI is the Service of the owner running for dataDir, with the
// owner's rights.
func ownerAPI(t testing.TB, dataDir string) service.Service {
	t.Helper()
	paths, err := config.ResolvePaths(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ep, err := client.Discover(ctx, paths.HubFile())
	if err != nil {
		t.Fatalf("find the owner of %s: %v", dataDir, err)
	}
	return client.NewService(client.New(ep))
}

// autoApprove lets the MCP agent name's jobs run without asking.
func autoApprove(t testing.TB, dataDir, name string) {
	t.Helper()
	svc := ownerAPI(t, dataDir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := svc.ListClients(ctx, cliCaller, service.ListClientsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		if c.Name == name && c.Kind == service.AgentKindMCP {
			if _, err := svc.SetAutoApprove(ctx, cliCaller, service.AutoApproveRequest{ID: c.ID, AutoApprove: true}); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no MCP client %q among %+v", name, list)
}

// TestMCPOverStdio drives the built binary's `ferry mcp` with the SDK's
// client over its stdin and stdout, against the simulator in a headless
// Chromium that ferry attaches to with --browser-url. No owner runs, so
// the process owns the data directory itself.
func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	p := startMCP(t, dataDir, "claude-code", "--browser-url", url)

	t.Run("initialize names Ferry and the eleven tools each have an input and an output schema", func(t *testing.T) {
		if info := p.cs.InitializeResult().ServerInfo; info.Name != "ferry" {
			t.Errorf("server %+v, want ferry", info)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := p.cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.InputSchema == nil || tool.OutputSchema == nil {
				t.Errorf("tool %s: input schema %v, output schema %v", tool.Name, tool.InputSchema != nil, tool.OutputSchema != nil)
			}
		}
		slices.Sort(names)
		want := []string{"ask", "cancel", "code", "image", "job", "research", "retrieve", "session", "sessions", "sites", "templates"}
		if !slices.Equal(names, want) {
			t.Errorf("tools %v, want %v", names, want)
		}
	})

	var firstJob string
	prompt := "What does Ferry do over MCP?"
	t.Run("ask waits for approval, granted with ferry approvals against the MCP process, then job returns the answer", func(t *testing.T) {
		var started mcpJob
		p.call(t, "ask", map[string]any{"site": "chatgpt", "prompt": prompt, "wait_s": 0}, &started)
		if started.JobID == "" || !started.AwaitingApproval || started.Done {
			t.Fatalf("ask returned %+v, want a job awaiting approval", started)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d submissions before the approval, want 0", n)
		}
		if r := ferry(t, nil, "approvals", "approve", started.JobID, "--data-dir", dataDir); r.code != 0 {
			t.Fatalf("ferry approvals approve: %+v", r)
		}
		var done mcpJob
		p.call(t, "job", map[string]any{"job_id": started.JobID, "wait_s": 120}, &done)
		if !done.Done || done.State != "done" || done.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("job returned %+v, want done with the answer", done)
		}
		firstJob = started.JobID
	})

	t.Run("a logged-out site is an error result with its envelope, and nothing is sent", func(t *testing.T) {
		autoApprove(t, dataDir, "claude-code")
		h.Server.Reset()
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		res := p.call(t, "ask", map[string]any{"site": "chatgpt", "prompt": "blocked?", "new_chat": true, "wait_s": 120}, nil)
		// The words, then the envelope as JSON.
		var text, last string
		for _, c := range res.Content {
			if tc, ok := c.(*mcpsdk.TextContent); ok {
				text, last = text+tc.Text, tc.Text
			}
		}
		var env errs.Envelope
		_ = json.Unmarshal([]byte(last), &env)
		code := env.Code
		if !res.IsError || code != errs.LoginRequired || !strings.Contains(text, string(errs.LoginRequired)) {
			t.Fatalf("result isError=%v code %q text %q, want an error result with login_required", res.IsError, code, text)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d submissions, want 0", n)
		}
	})

	t.Run("a request that breaks a tool's schema gets a protocol error and the session goes on", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := p.cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "job", Arguments: map[string]any{"job_id": 5}}); err == nil {
			t.Fatal("job with a number for job_id: no protocol error")
		}
		if _, err := p.cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil {
			t.Fatal("an unknown tool: no protocol error")
		}
		var again mcpJob
		p.call(t, "job", map[string]any{"job_id": firstJob, "wait_s": 0}, &again)
		if again.State != "done" {
			t.Fatalf("job after the errors: %+v", again)
		}
	})

	t.Run("a job is read by the next ferry mcp after the first was killed", func(t *testing.T) {
		if firstJob == "" {
			t.Fatal("no job from the ask subtest")
		}
		assertOnlyJSONRPC(t, p.out.String())
		p.kill(t)
		next := startMCP(t, dataDir, "claude-code", "--browser-url", url)
		var got mcpJob
		next.call(t, "job", map[string]any{"job_id": firstJob, "wait_s": 0}, &got)
		if !got.Done || got.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("job from the next process: %+v", got)
		}
		next.close(t)
		assertOnlyJSONRPC(t, next.out.String())
	})
}

// TestMCPJobsSurviveTheMCPProcessUnderAnOwner: with `ferry serve` running,
// `ferry mcp` works through it, so a job still running when the MCP process
// is killed goes on in the owner and the next `ferry mcp` follows it to its
// answer.
func TestMCPJobsSurviveTheMCPProcessUnderAnOwner(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dataDir := t.TempDir()
	startServe(t, dataDir, "--browser-url", h.Browser.Endpoint())
	first := startMCP(t, dataDir, "codex")
	// The agent's client is made on its first call.
	first.call(t, "sites", map[string]any{}, nil)
	autoApprove(t, dataDir, "codex")
	prompt := "A slow one\n" + sim.Directive("normal", "chunk", "4", "interval", "100ms")
	var started mcpJob
	first.call(t, "ask", map[string]any{"site": "chatgpt", "prompt": prompt, "wait_s": 1}, &started)
	if started.JobID == "" || started.Done || started.State != "running" {
		t.Fatalf("ask with wait_s 1 returned %+v, want a running job", started)
	}
	first.kill(t)
	if out := first.out.String(); out != "" {
		assertOnlyJSONRPC(t, out)
	}
	next := startMCP(t, dataDir, "codex")
	var got mcpJob
	next.call(t, "job", map[string]any{"job_id": started.JobID, "wait_s": 120}, &got)
	if !got.Done || got.State != "done" || got.Answer != providertest.NormalAnswer(prompt) {
		t.Fatalf("job from the next process: %+v", got)
	}
	if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
		t.Fatalf("%d submissions, want 1", n)
	}
	// The user reads the agent's run with the CLI as any other.
	if got.Session == "" {
		t.Fatalf("the job names no run: %+v", got)
	}
	r := ferry(t, nil, "poll", "--session", got.Session, "--data-dir", dataDir)
	if r.code != 0 || !strings.Contains(r.stdout, providertest.NormalAnswer(prompt)) {
		t.Fatalf("ferry poll of the agent's run: %+v", r)
	}
}

// TestMCPAnswersAMalformedLineWithAParseError writes raw lines to `ferry
// mcp`: a line that is not JSON gets JSON-RPC's parse error and the session
// goes on; an unknown method gets method-not-found; nothing but JSON-RPC
// reaches stdout, even the owner's start (no banner).
func TestMCPAnswersAMalformedLineWithAParseError(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "mcp", "--data-dir", t.TempDir())
	cmd.Env = hermeticEnv(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	lines := make(chan string, 16)
	var all lockedBuffer
	go func() {
		r := bufio.NewReader(io.TeeReader(stdout, &all))
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- l
		}
	}()
	send := func(s string) {
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	type reply struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	read := func() reply {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed; stderr %s", stderr.String())
			}
			var r reply
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("stdout line %q: %v", l, err)
			}
			return r
		case <-time.After(30 * time.Second):
			t.Fatalf("no reply; stderr %s", stderr.String())
		}
		return reply{}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := read(); string(r.ID) != "1" || r.Error != nil || len(r.Result) == 0 {
		t.Fatalf("initialize: %+v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`this is not JSON {`)
	if r := read(); r.Error == nil || r.Error.Code != -32700 || string(r.ID) != "null" {
		t.Fatalf("a line that is not JSON: %+v, want a parse error with id null", r)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"no/such/method"}`)
	if r := read(); string(r.ID) != "2" || r.Error == nil || r.Error.Code != -32601 {
		t.Fatalf("an unknown method: %+v, want method not found", r)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if r := read(); string(r.ID) != "3" || r.Error != nil || !strings.Contains(string(r.Result), `"name":"ask"`) {
		t.Fatalf("tools/list after the errors: %+v", r)
	}
	stdin.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ferry mcp exited with %v when stdin closed; stderr %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("ferry mcp did not exit when stdin closed")
	}
	assertOnlyJSONRPC(t, all.String())
	if !strings.Contains(stderr.String(), "level=") {
		t.Errorf("no log on stderr: %q", stderr.String())
	}
}

// TestMCPOwnsTheDataDirectoryWhenNoOwnerRuns: a `ferry mcp` started with no
// owner is one for its lifetime: ferry approvals works against it, a
// second ferry mcp works through it, and a second owner gets store_busy.
func TestMCPOwnsTheDataDirectoryWhenNoOwnerRuns(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	first := startMCP(t, dataDir, "gemini-cli")
	if r := ferry(t, nil, "approvals", "list", "--json", "--data-dir", dataDir); r.code != 0 {
		t.Fatalf("ferry approvals list against ferry mcp: %+v", r)
	}
	second := startMCP(t, dataDir, "cursor")
	var sites struct {
		Sites []json.RawMessage `json:"sites"`
	}
	second.call(t, "sites", map[string]any{}, &sites)
	if len(sites.Sites) == 0 {
		t.Fatal("the second ferry mcp lists no sites")
	}
	r := ferry(t, nil, "serve", "--json", "--data-dir", dataDir)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, string(errs.StoreBusy)) {
		t.Fatalf("ferry serve beside ferry mcp: %+v, want store_busy", r)
	}
	second.close(t)
	first.close(t)
	assertOnlyJSONRPC(t, first.out.String())
	assertOnlyJSONRPC(t, second.out.String())
}

// TestMCPCarriesOnWhenItsOwnerStops: the owner a `ferry mcp` works through
// stops (the app quits, serve ends); the next call does not fail with a
// refused connection: ferry mcp becomes the owner itself and the agent's
// jobs carry over.
func TestMCPCarriesOnWhenItsOwnerStops(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dataDir := t.TempDir()
	srv := startServe(t, dataDir, "--browser-url", h.Browser.Endpoint())
	p := startMCP(t, dataDir, "codex")
	p.call(t, "sites", map[string]any{}, nil)
	autoApprove(t, dataDir, "codex")
	prompt := "Before the owner stops"
	var asked mcpJob
	p.call(t, "ask", map[string]any{"site": "chatgpt", "prompt": prompt, "wait_s": 120}, &asked)
	if !asked.Done || asked.Answer != providertest.NormalAnswer(prompt) {
		t.Fatalf("ask through serve: %+v", asked)
	}
	srv.stop(t)

	var got mcpJob
	res := p.call(t, "job", map[string]any{"job_id": asked.JobID}, &got)
	if res.IsError || !got.Done || got.Answer != providertest.NormalAnswer(prompt) {
		t.Fatalf("job after its owner stopped: error %v %+v; stderr %s", res.IsError, got, p.stderr.String())
	}
	// stderr reaches the buffer through a pipe copied by another goroutine:
	// the line written before the answer may come a moment after it.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(p.stderr.String(), "owning the data directory") {
		if time.Now().After(deadline) {
			t.Fatalf("ferry mcp did not become the owner; stderr %s", p.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := ferry(t, nil, "approvals", "list", "--json", "--data-dir", dataDir); r.code != 0 {
		t.Fatalf("ferry approvals list against the ferry mcp that took over: %+v", r)
	}
	p.close(t)
	assertOnlyJSONRPC(t, p.out.String())
}
