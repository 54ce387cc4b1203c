package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// tsClientDir is the pinned Node project of the official TypeScript MCP
// client (`make mcpclient` installs its packages).
const tsClientDir = "testdata/mcpclient"

// tsClient is the official TypeScript MCP client running `ferry mcp` as
// its stdio server, driven one request at a time through client.mjs.
type tsClient struct {
	cmd    *exec.Cmd
	stdin  interface{ Write([]byte) (int, error) }
	lines  chan []byte
	stderr *lockedBuffer
	mu     sync.Mutex
	next   int
}

// tsAnswer is client.mjs's answer to one request: the result the client
// accepted, or what it threw.
type tsAnswer struct {
	ID     int             `json:"id"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// tsToolResult is a tools/call result as the client returned it.
type tsToolResult struct {
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`     // an image's bytes, base64
		MIMEType string `json:"mimeType"` // an image's or a link's type
		URI      string `json:"uri"`      // a resource link's
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// text is the result's text content, block after block.
func (r tsToolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
		b.WriteString("\n")
	}
	return b.String()
}

// startTSClient runs client.mjs with node: it spawns `ferry mcp` with args
// as the MCP client clientName and lists the tools. It fails t when node or
// the client's packages are missing.
func startTSClient(t *testing.T, clientName string, args ...string) *tsClient {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: the official MCP client runs on Node 20 (make setup installs it)")
	}
	if _, err := os.Stat(filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatalf("the TypeScript MCP client's packages are not installed: run `make mcpclient` (npm ci in backend/cli/%s)", tsClientDir)
	}
	env := map[string]string{}
	for _, kv := range hermeticEnv(t) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	srv, err := json.Marshal(map[string]any{"command": binary, "args": append([]string{"mcp"}, args...), "env": env})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "client.mjs", string(srv), clientName)
	cmd.Dir = tsClientDir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &tsClient{cmd: cmd, stdin: stdin, lines: make(chan []byte, 4), stderr: &lockedBuffer{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		r := bufio.NewReader(stdout)
		for {
			l, err := r.ReadBytes('\n')
			if len(l) > 0 {
				c.lines <- l
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the TypeScript client exited with %v; stderr %s", err, c.stderr.String())
			}
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("the TypeScript client did not stop when its stdin closed")
		}
	})
	if a := c.read(t); !a.OK {
		t.Fatalf("the TypeScript client did not connect to ferry mcp: %s; stderr %s", a.Error.Message, c.stderr.String())
	}
	return c
}

// read is the client's next answer; the bound only catches a hang (a job
// tool may wait 300 s by contract).
func (c *tsClient) read(t *testing.T) tsAnswer {
	t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			t.Fatalf("the TypeScript client's stdout closed; stderr %s", c.stderr.String())
		}
		var a tsAnswer
		if err := json.Unmarshal(l, &a); err != nil {
			t.Fatalf("the TypeScript client wrote %q: %v", l, err)
		}
		return a
	case <-time.After(6 * time.Minute):
		t.Fatalf("the TypeScript client gave no answer; stderr %s", c.stderr.String())
	}
	return tsAnswer{}
}

// do sends one request and returns its answer.
func (c *tsClient) do(t *testing.T, req map[string]any) tsAnswer {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	req["id"] = c.next
	line, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.stdin.Write(append(line, '\n')); err != nil {
		t.Fatalf("write to the TypeScript client: %v; stderr %s", err, c.stderr.String())
	}
	a := c.read(t)
	if a.ID != c.next {
		t.Fatalf("answer %d to request %d", a.ID, c.next)
	}
	return a
}

// call calls tool and returns the result the client accepted; a result the
// client refused (or a protocol error) fails t.
func (c *tsClient) call(t *testing.T, tool string, args map[string]any) tsToolResult {
	t.Helper()
	a := c.do(t, map[string]any{"op": "call", "tool": tool, "args": args})
	if !a.OK {
		t.Fatalf("the official client refused the %s result: %s", tool, a.Error.Message)
	}
	var r tsToolResult
	if err := json.Unmarshal(a.Result, &r); err != nil {
		t.Fatalf("%s result %s: %v", tool, a.Result, err)
	}
	return r
}

// ok calls tool, fails t on an error result and decodes the structured
// content into out.
func (c *tsClient) ok(t *testing.T, tool string, args map[string]any, out any) tsToolResult {
	t.Helper()
	r := c.call(t, tool, args)
	if r.IsError {
		t.Fatalf("%s: error result %s", tool, r.text())
	}
	if len(r.StructuredContent) == 0 {
		t.Fatalf("%s: no structured content", tool)
	}
	if out != nil {
		if err := json.Unmarshal(r.StructuredContent, out); err != nil {
			t.Fatalf("%s structured content %s: %v", tool, r.StructuredContent, err)
		}
	}
	return r
}

// fails calls tool and returns the envelope of its error result, which the
// client must have accepted; it fails t unless the result is an error whose
// words tell the agent what to do without a command or flag of the
// terminal.
func (c *tsClient) fails(t *testing.T, tool string, args map[string]any) errs.Envelope {
	t.Helper()
	r := c.call(t, tool, args)
	if !r.IsError {
		t.Fatalf("%s: want an error result, got %s", tool, r.text())
	}
	if len(r.Content) == 0 {
		t.Fatalf("%s: an error result without content", tool)
	}
	var e errs.Envelope
	if err := json.Unmarshal([]byte(r.Content[len(r.Content)-1].Text), &e); err != nil || e.Code == "" {
		t.Fatalf("%s: the error result's last text is not the envelope: %q", tool, r.Content[len(r.Content)-1].Text)
	}
	assertAgentWords(t, tool, r.text(), e)
	return e
}

// assertAgentWords fails when an agent's error text names a command or a
// flag of the terminal, or does not say what to do.
func assertAgentWords(t *testing.T, what, text string, e errs.Envelope) {
	t.Helper()
	if e.RetryHint == "" || !strings.Contains(text, e.RetryHint) {
		t.Errorf("%s: the text %q does not say what to do (hint %q)", what, text, e.RetryHint)
	}
	if errs.NamesCLI(text) {
		t.Errorf("%s: the agent is told to use a terminal command or flag: %q", what, text)
	}
}

// TestMCPThroughTheTypeScriptClient runs the official TypeScript MCP client
// (what Claude Code and most agents use), pinned in testdata/mcpclient,
// against the built `ferry mcp` on the simulator: every tool once with a
// result and once with an error, and the resources. The client checks each
// result against the tool's output schema and refuses the whole result when
// it does not match, error results included; every error's words name what
// an agent can do.
func TestMCPThroughTheTypeScriptClient(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dataDir := t.TempDir()
	const agent = "claude-code"
	c := startTSClient(t, agent, "--data-dir", dataDir, "--browser-url", h.Browser.Endpoint())

	t.Run("the client lists the eleven tools and the two resource templates", func(t *testing.T) {
		a := c.do(t, map[string]any{"op": "list"})
		var list struct {
			Tools []struct {
				Name         string          `json:"name"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		}
		if !a.OK || json.Unmarshal(a.Result, &list) != nil || len(list.Tools) != 11 {
			t.Fatalf("tools/list: %+v", a)
		}
		for _, tool := range list.Tools {
			if len(tool.OutputSchema) == 0 {
				t.Errorf("%s has no output schema: the client would check nothing", tool.Name)
			}
		}
		if a := c.do(t, map[string]any{"op": "templates"}); !a.OK || !strings.Contains(string(a.Result), "ferry://session/{id}") {
			t.Fatalf("resources/templates/list: %+v", a)
		}
	})

	t.Run("sites and templates", func(t *testing.T) {
		var sites struct {
			Sites []struct {
				ID string `json:"id"`
			} `json:"sites"`
		}
		c.ok(t, "sites", nil, &sites)
		if len(sites.Sites) == 0 {
			t.Fatal("no sites")
		}
		c.ok(t, "templates", nil, nil)
		autoApprove(t, dataDir, agent)
	})

	var asked mcpJob
	prompt := "What does the official client see?"
	t.Run("ask: the answer, an unknown site, a file from no allowed folder, another's run and a logged-out site", func(t *testing.T) {
		c.ok(t, "ask", map[string]any{"site": "chatgpt", "prompt": prompt, "new_chat": true, "wait_s": 120}, &asked)
		if !asked.Done || asked.Answer != providertest.NormalAnswer(prompt) || asked.Session == "" {
			t.Fatalf("ask: %+v", asked)
		}
		if e := c.fails(t, "ask", map[string]any{"site": "nosuchsite", "prompt": "Anyone?"}); e.Code != errs.UnknownSite {
			t.Errorf("an unknown site: %+v", e)
		}
		notes := filepath.Join(t.TempDir(), "notes.txt")
		if err := os.WriteFile(notes, []byte("remember the milk\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if e := c.fails(t, "ask", map[string]any{"site": "chatgpt", "prompt": "Read it", "new_chat": true, "files": []string{notes}}); e.Code != errs.HubForbidden || !strings.Contains(e.RetryHint, "Settings → Agents") {
			t.Errorf("a file with no folder allowed: %+v, want hub_forbidden saying where the user allows one", e)
		}
		if e := c.fails(t, "ask", map[string]any{"prompt": "And then?", "session": "run-of-someone-else"}); e.Code != errs.HubForbidden || !strings.Contains(e.RetryHint, "new chat") {
			t.Errorf("a follow-up to a run that is not the agent's: %+v, want hub_forbidden", e)
		}
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		if e := c.fails(t, "ask", map[string]any{"site": "chatgpt", "prompt": "Blocked?", "new_chat": true, "wait_s": 120}); e.Code != errs.LoginRequired || e.Evidence["job_id"] == "" {
			t.Errorf("a logged-out site: %+v", e)
		}
	})

	t.Run("job: a job's answer, and an unknown job points to what the agent can call", func(t *testing.T) {
		var got mcpJob
		c.ok(t, "job", map[string]any{"job_id": asked.JobID, "wait_s": 0}, &got)
		if !got.Done || got.Answer != asked.Answer {
			t.Fatalf("job: %+v", got)
		}
		e := c.fails(t, "job", map[string]any{"job_id": "job-that-never-was"})
		if e.Code != errs.HubNotFound || !strings.Contains(e.RetryHint, "sessions tool") {
			t.Errorf("an unknown job: %+v, want hub_not_found pointing to the sessions tool", e)
		}
	})

	t.Run("cancel: a running job, and an unknown job", func(t *testing.T) {
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLong, Params: map[string]string{"size": "6000"}})
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		var running, cancelled mcpJob
		c.ok(t, "ask", map[string]any{"site": "chatgpt", "prompt": "Cancel me", "new_chat": true, "wait_s": 0}, &running)
		if running.Done {
			t.Fatalf("ask with wait_s 0 ended: %+v", running)
		}
		c.ok(t, "cancel", map[string]any{"job_id": running.JobID}, &cancelled)
		for !cancelled.Done {
			c.ok(t, "job", map[string]any{"job_id": running.JobID, "wait_s": 30}, &cancelled)
		}
		if cancelled.State != string(record.StateCancelled) {
			t.Errorf("the cancelled job: %+v", cancelled)
		}
		if e := c.fails(t, "cancel", map[string]any{"job_id": "job-that-never-was"}); e.Code != errs.HubNotFound {
			t.Errorf("cancel of an unknown job: %+v", e)
		}
	})

	t.Run("image: the image as image content and a link the client accepts, its resource the same bytes", func(t *testing.T) {
		var r struct {
			Done   bool `json:"done"`
			Images []struct {
				Path, SHA256, MIME, Verdict, Resource string
				Width, Height                         int
			} `json:"images"`
		}
		res := c.ok(t, "image", map[string]any{"prompt": "Draw the pier at night", "wait_s": 120}, &r)
		if !r.Done || len(r.Images) != 1 || r.Images[0].Verdict != "verified" || r.Images[0].MIME != "image/png" || r.Images[0].Resource != "ferry://artifact/"+r.Images[0].SHA256 {
			t.Fatalf("ask: %+v", r)
		}
		img := r.Images[0]
		onDisk, err := os.ReadFile(img.Path)
		if err != nil {
			t.Fatal(err)
		}
		var data []byte
		linked := false
		for _, c := range res.Content {
			switch c.Type {
			case "image":
				if data, err = base64.StdEncoding.DecodeString(c.Data); err != nil || c.MIMEType != "image/png" {
					t.Fatalf("image content %s… (%v)", c.MIMEType, err)
				}
			case "resource_link":
				linked = c.URI == img.Resource && c.MIMEType == "image/png"
			}
		}
		if !bytes.Equal(data, onDisk) || !linked {
			t.Fatalf("content %+v: want the saved image's %d bytes and a link to %s", res.Content, len(onDisk), img.Resource)
		}
		a := c.do(t, map[string]any{"op": "read", "uri": img.Resource})
		var read struct {
			Contents []struct {
				MIMEType string `json:"mimeType"`
				Blob     string `json:"blob"`
			} `json:"contents"`
		}
		if !a.OK || json.Unmarshal(a.Result, &read) != nil || len(read.Contents) != 1 || read.Contents[0].MIMEType != "image/png" {
			t.Fatalf("read %s: %+v", img.Resource, a)
		}
		if b, err := base64.StdEncoding.DecodeString(read.Contents[0].Blob); err != nil || !bytes.Equal(b, onDisk) {
			t.Fatalf("the resource's bytes differ from the saved image (%v)", err)
		}
	})

	var zip struct {
		SHA256   string `json:"sha256"`
		Verified bool   `json:"verified"`
		Resource string `json:"resource"`
	}
	var conv string
	t.Run("code: verified zips, and a site without a sandbox", func(t *testing.T) {
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioCodeZip})
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		var r struct {
			Done    bool `json:"done"`
			Zips    []json.RawMessage
			Receipt *struct {
				OK             bool   `json:"ok"`
				ConversationID string `json:"conversationId"`
			} `json:"receipt"`
		}
		c.ok(t, "code", map[string]any{"task": "Write hello.py", "zip": "one", "wait_s": 240}, &r)
		if !r.Done || r.Receipt == nil || !r.Receipt.OK || len(r.Zips) != 1 {
			t.Fatalf("code: %+v", r)
		}
		if err := json.Unmarshal(r.Zips[0], &zip); err != nil || !zip.Verified || zip.Resource == "" {
			t.Fatalf("zip %s: %v", r.Zips[0], err)
		}
		conv = r.Receipt.ConversationID
		if e := c.fails(t, "code", map[string]any{"task": "Write hello.py", "zip": "one", "site": "claude"}); e.Code != errs.CapabilityMissing {
			t.Errorf("code on a site without a sandbox: %+v", e)
		}
	})

	t.Run("retrieve: the code job's conversation, and one that is not this agent's", func(t *testing.T) {
		if conv == "" {
			t.Fatal("no conversation from the code job")
		}
		var r struct {
			OK   bool `json:"ok"`
			Zips []struct {
				SHA256 string `json:"sha256"`
			} `json:"zips"`
		}
		c.ok(t, "retrieve", map[string]any{"conversation": conv}, &r)
		if !r.OK || len(r.Zips) == 0 || r.Zips[0].SHA256 != zip.SHA256 {
			t.Fatalf("retrieve: %+v", r)
		}
		if e := c.fails(t, "retrieve", map[string]any{"conversation": "0123456789abcdef0123456789abcdef"}); e.Code != errs.HubForbidden {
			t.Errorf("retrieve of another conversation: %+v", e)
		}
	})

	t.Run("sessions and session: the agent's runs, a bad limit and an unknown run", func(t *testing.T) {
		var list struct {
			Sessions []struct {
				ID string `json:"id"`
			} `json:"sessions"`
		}
		c.ok(t, "sessions", map[string]any{"limit": 100}, &list)
		found := false
		for _, s := range list.Sessions {
			found = found || s.ID == asked.Session
		}
		if !found {
			t.Fatalf("sessions %+v lack the ask's run %s", list.Sessions, asked.Session)
		}
		if e := c.fails(t, "sessions", map[string]any{"limit": 5000}); e.Code != errs.BadInput {
			t.Errorf("sessions with limit 5000: %+v", e)
		}
		var one struct {
			ID       string `json:"id"`
			Markdown string `json:"markdown"`
		}
		c.ok(t, "session", map[string]any{"id": asked.Session}, &one)
		if one.ID != asked.Session || !strings.Contains(one.Markdown, prompt) {
			t.Fatalf("session: %+v", one)
		}
		if e := c.fails(t, "session", map[string]any{"id": "run-that-never-was"}); e.Code != errs.SessionNotFound && e.Code != errs.HubNotFound {
			t.Errorf("an unknown run: %+v", e)
		}
	})

	t.Run("resources: a run's transcript, a zip's file list, and an unknown run", func(t *testing.T) {
		a := c.do(t, map[string]any{"op": "read", "uri": "ferry://session/" + asked.Session})
		if !a.OK || !strings.Contains(string(a.Result), "What does the official client see?") {
			t.Fatalf("read the run: %+v", a)
		}
		if zip.Resource == "" {
			t.Fatal("no zip resource from the code job")
		}
		a = c.do(t, map[string]any{"op": "read", "uri": zip.Resource})
		if !a.OK || !strings.Contains(string(a.Result), zip.SHA256) {
			t.Fatalf("read the zip: %+v", a)
		}
		a = c.do(t, map[string]any{"op": "read", "uri": "ferry://session/run-that-never-was"})
		// The SDK's resource-not-found error (its code follows the spec's
		// version: -32002 before, invalid params now).
		if a.OK || a.Error == nil || a.Error.Code == nil || !strings.Contains(strings.ToLower(a.Error.Message), "resource not found") {
			t.Fatalf("read an unknown run: %+v, want resource not found", a)
		}
	})

	t.Run("once the user revokes the agent, every tool's error reaches it", func(t *testing.T) {
		svc := ownerAPI(t, dataDir)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		list, err := svc.ListClients(ctx, cliCaller, service.ListClientsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		revoked := false
		for _, cl := range list {
			if cl.Name == agent && cl.Kind == service.AgentKindMCP {
				if _, err := svc.RevokeClient(ctx, cliCaller, service.ClientRef{ID: cl.ID}); err != nil {
					t.Fatal(err)
				}
				revoked = true
			}
		}
		if !revoked {
			t.Fatalf("no MCP client %q among %+v", agent, list)
		}
		before := h.Server.SubmissionCount(sim.ChatGPT)
		for tool, args := range map[string]map[string]any{
			"sites":     nil,
			"templates": nil,
			"ask":       {"site": "chatgpt", "prompt": "Still there?"},
			"code":      {"task": "Write hello.py", "zip": "one"},
			"job":       {"job_id": asked.JobID},
			"cancel":    {"job_id": asked.JobID},
			"sessions":  {},
			"session":   {"id": asked.Session},
			"retrieve":  {"conversation": conv},
		} {
			if e := c.fails(t, tool, args); e.Code != errs.HubUnauthorized {
				t.Errorf("%s after the revocation: %+v, want hub_unauthorized", tool, e)
			}
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before {
			t.Errorf("%d prompts sent for a revoked agent", n-before)
		}
		a := c.do(t, map[string]any{"op": "read", "uri": "ferry://session/" + asked.Session})
		if a.OK || a.Error == nil || !strings.Contains(a.Error.Message, string(errs.HubUnauthorized)) {
			t.Fatalf("read a run after the revocation: %+v", a)
		}
		assertAgentWords(t, "resources/read", a.Error.Message, errs.Envelope{RetryHint: agentHintIn(a.Error.Message)})
	})
}

// agentHintIn is the "What to do:" line of an error's words, "" for none.
func agentHintIn(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if h, ok := strings.CutPrefix(l, "What to do: "); ok {
			return h
		}
	}
	return ""
}
