// Package mcptest connects an MCP client to Ferry's MCP server in memory
// and reads tool results, for the tests of the MCP face.
package mcptest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Connect runs srv on one end of an in-memory transport and returns a
// client session on the other, initialized as clientName; both are closed
// when t ends.
func Connect(t testing.TB, srv *mcpsdk.Server, clientName string, opts *mcpsdk.ClientOptions) *mcpsdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcpsdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect the server: %v", err)
	}
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: clientName, Version: "test"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect the client: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
		cancel()
	})
	return cs
}

// Call calls tool name with args and returns its result. A protocol error
// fails t.
func Call(t testing.TB, ctx context.Context, cs *mcpsdk.ClientSession, name string, args map[string]any) *mcpsdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// Decode decodes res's structured content into out.
func Decode(t testing.TB, res *mcpsdk.CallToolResult, out any) {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("encode structured content: %v", err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("decode structured content %s: %v", raw, err)
	}
}

// Envelope is the error envelope of an isError result, read from its
// last text content (the envelope as JSON); it fails t when res is not an
// error, or carries structured content (an error result's envelope is not
// the shape of the tool's output schema).
func Envelope(t testing.TB, res *mcpsdk.CallToolResult) errs.Envelope {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an isError result, got %s", Text(res))
	}
	if res.StructuredContent != nil {
		t.Fatalf("an error result with structured content: %v", res.StructuredContent)
	}
	var last string
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			last = tc.Text
		}
	}
	var e errs.Envelope
	if err := json.Unmarshal([]byte(last), &e); err != nil || e.Code == "" {
		t.Fatalf("the error result's last text is not an envelope (%v): %q", err, last)
	}
	return e
}

// Text is the text content of res.
func Text(res *mcpsdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// CheckOutput fails t unless res's structured content is valid for the
// output schema tool lists.
func CheckOutput(t testing.TB, ctx context.Context, cs *mcpsdk.ClientSession, tool string, res *mcpsdk.CallToolResult) {
	t.Helper()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	for _, tl := range list.Tools {
		if tl.Name != tool {
			continue
		}
		raw, err := json.Marshal(tl.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s output schema: %v", tool, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s output schema: %v", tool, err)
		}
		out, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); err != nil {
			t.Fatalf("%s's structured content does not match its output schema: %v\n%s", tool, err, out)
		}
		return
	}
	t.Fatalf("no tool %s", tool)
}
