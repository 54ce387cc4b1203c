package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/mcp"
	"github.com/ferrydesk/ferry/backend/mcp/mcptest"
	"github.com/ferrydesk/ferry/backend/service"
)

// stubService answers EnsureAgent alone; any other call panics (a tool
// that is not expected to reach the service).
type stubService struct {
	service.Service
	revoked bool
}

func (s stubService) EnsureAgent(_ context.Context, c service.Caller, req service.EnsureAgentRequest) (service.ClientInfo, error) {
	info := service.ClientInfo{ID: "c_stub", Name: req.Name, Kind: req.Kind}
	if s.revoked {
		now := time.Now()
		info.RevokedAt = &now
	}
	return info, nil
}

func (stubService) ListTemplates(context.Context, service.Caller, service.ListTemplatesRequest) ([]service.Template, error) {
	return []service.Template{}, nil
}

func TestToolsHaveValidSchemas(t *testing.T) {
	ctx := context.Background()
	cs := mcptest.Connect(t, mcp.New(stubService{}, mcp.Options{Version: "test"}).SDK(), "schema-test", nil)
	if got := cs.InitializeResult().ServerInfo.Name; got != "ferry" {
		t.Fatalf("server name %q, want ferry", got)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		for what, sc := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			raw, err := json.Marshal(sc)
			if err != nil {
				t.Fatalf("%s %s schema: %v", tool.Name, what, err)
			}
			var s jsonschema.Schema
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatalf("%s %s schema is not a JSON schema: %v", tool.Name, what, err)
			}
			if s.Type != "object" {
				t.Errorf("%s %s schema has type %q, want object", tool.Name, what, s.Type)
			}
			if _, err := s.Resolve(nil); err != nil {
				t.Errorf("%s %s schema does not resolve: %v", tool.Name, what, err)
			}
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
	}
	slices.Sort(names)
	want := []string{"ask", "cancel", "code", "image", "job", "research", "retrieve", "session", "sessions", "sites", "templates"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
}

func TestArgumentsOutsideTheSchemaAreProtocolErrors(t *testing.T) {
	ctx := context.Background()
	cs := mcptest.Connect(t, mcp.New(stubService{}, mcp.Options{}).SDK(), "wait-test", nil)
	for _, w := range []int{-1, mcp.MaxWaitS + 1} {
		if _, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "ask", Arguments: map[string]any{"site": "chatgpt", "prompt": "hi", "wait_s": w}}); err == nil {
			t.Fatalf("wait_s %d was accepted", w)
		}
	}
	if _, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "code", Arguments: map[string]any{"task": "x", "zip": "two"}}); err == nil {
		t.Fatal("zip \"two\" was accepted")
	}
	if _, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "ask", Arguments: map[string]any{"site": "chatgpt"}}); err == nil {
		t.Fatal("ask without a prompt was accepted")
	}
}

func TestMalformedArgumentsAreAProtocolError(t *testing.T) {
	ctx := context.Background()
	cs := mcptest.Connect(t, mcp.New(stubService{}, mcp.Options{}).SDK(), "malformed-test", nil)
	_, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "ask", Arguments: map[string]any{"site": 7, "prompt": "hi"}})
	if err == nil {
		t.Fatal("a malformed call succeeded, want a protocol error")
	}
}

func TestRevokedAgentIsRefused(t *testing.T) {
	ctx := context.Background()
	cs := mcptest.Connect(t, mcp.New(stubService{revoked: true}, mcp.Options{}).SDK(), "revoked-test", nil)
	res := mcptest.Call(t, ctx, cs, "templates", nil)
	if e := mcptest.Envelope(t, res); e.Code != errs.HubUnauthorized {
		t.Fatalf("code %s, want hub_unauthorized", e.Code)
	}
}

func TestOutDirOutsideRootsIsRefused(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	srv := mcp.New(stubService{}, mcp.Options{OutRoots: func() []string { return []string{root} }})
	cs := mcptest.Connect(t, srv.SDK(), "outdir-test", nil)
	for _, dir := range []string{"relative/dir", t.TempDir(), root + "/../elsewhere"} {
		res := mcptest.Call(t, ctx, cs, "code", map[string]any{"task": "x", "zip": "one", "out_dir": dir})
		if e := mcptest.Envelope(t, res); e.Code != errs.BadInput {
			t.Fatalf("out_dir %s: code %s, want bad_input", dir, e.Code)
		}
	}
}

// namedService records the agent names the server asks for.
type namedService struct {
	stubService
	names chan string
}

func (s namedService) EnsureAgent(ctx context.Context, c service.Caller, req service.EnsureAgentRequest) (service.ClientInfo, error) {
	s.names <- req.Name
	return s.stubService.EnsureAgent(ctx, c, req)
}

func TestTheAgentIsNamedAfterTheClient(t *testing.T) {
	ctx := context.Background()
	for client, want := range map[string]string{
		"claude-code":            "claude-code",
		"bad\x00name\n":          "badname",
		strings.Repeat("é", 100): strings.Repeat("é", 64),
	} {
		svc := namedService{names: make(chan string, 1)}
		cs := mcptest.Connect(t, mcp.New(svc, mcp.Options{}).SDK(), client, nil)
		mcptest.Call(t, ctx, cs, "templates", nil)
		if got := <-svc.names; got != want {
			t.Errorf("client %q made agent %q, want %q", client, got, want)
		}
	}
}
