package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// call is what a tool handler gets: the request, the agent it acts as and
// that agent's client record.
type call struct {
	req    *mcpsdk.CallToolRequest
	caller service.Caller
	client service.ClientInfo
}

// handler is a typed tool: it returns its structured result and the text
// that says it in words, or an error (an errs envelope) that becomes an
// isError result.
type handler[In, Out any] func(ctx context.Context, c call, in In) (Out, string, error)

// addTool registers a tool whose input and output schemas are inferred from
// In and Out. Arguments that do not match the input schema are a protocol
// error (invalid params); every other failure is an isError result (see
// errorResult). It panics when a schema cannot be inferred (a programming
// error a test catches).
func addTool[In, Out any](s *Server, t *mcpsdk.Tool, h handler[In, Out]) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %s: %v", t.Name, err))
	}
	tuneInput(in)
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %s: %v", t.Name, err))
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: resolve input schema of %s: %v", t.Name, err))
	}
	t.InputSchema, t.OutputSchema = in, out
	s.sdk.AddTool(t, func(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
		args, perr := decodeArgs[In](req.Params.Arguments, resolved)
		if perr != nil {
			return nil, perr
		}
		caller, info, err := s.caller(ctx, req.Session)
		if err != nil {
			return errorResult(err), nil
		}
		res, text, err := h(ctx, call{req: req, caller: caller, client: info}, args)
		if err != nil {
			s.log.Info("tool failed", "tool", t.Name, "code", errs.CodeOf(err))
			return errorResult(err), nil
		}
		content := []mcpsdk.Content{&mcpsdk.TextContent{Text: text}}
		if more, ok := any(res).(interface{ content() []mcpsdk.Content }); ok {
			content = append(content, more.content()...)
		}
		return &mcpsdk.CallToolResult{Content: content, StructuredContent: res}, nil
	})
}

// tuneInput adds to an inferred input schema what a Go type cannot say: the
// bounds of wait_s and the values of zip.
func tuneInput(in *jsonschema.Schema) {
	if p := in.Properties["wait_s"]; p != nil {
		lo, hi := 0.0, float64(MaxWaitS)
		p.Minimum, p.Maximum, p.Default = &lo, &hi, json.RawMessage(fmt.Sprint(DefaultWaitS))
	}
	if p := in.Properties["zip"]; p != nil {
		p.Enum = []any{"one", "multi"}
	}
}

// decodeArgs checks raw against the input schema and decodes it. Errors: a
// JSON-RPC invalid-params error naming what is wrong.
func decodeArgs[In any](raw json.RawMessage, schema *jsonschema.Resolved) (In, error) {
	var zero In
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return zero, invalidParams("the arguments are not a JSON object: %v", err)
	}
	if err := schema.Validate(m); err != nil {
		return zero, invalidParams("the arguments do not match the tool's input schema: %v", err)
	}
	var in In
	if err := json.Unmarshal(raw, &in); err != nil {
		return zero, invalidParams("decode the arguments: %v", err)
	}
	return in, nil
}

func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// errorResult is err as a tool result: isError, with the envelope (its
// hint in an agent's words) as text twice: in words, then as JSON for a
// program. It carries no structured content: that is the tool's output
// schema's, which the spec makes the server keep and clients check (the
// official TypeScript client rejects a whole result whose structured
// content does not match it, error results included), and the envelope is
// not that shape.
func errorResult(err error) *mcpsdk.CallToolResult {
	e := forAgent(errs.From(err))
	return &mcpsdk.CallToolResult{IsError: true, Content: []mcpsdk.Content{
		&mcpsdk.TextContent{Text: envelopeText(e)},
		&mcpsdk.TextContent{Text: string(e.JSON())},
	}}
}

// envelopeText says an envelope in words: its code, message and what to do.
func envelopeText(e *errs.Envelope) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Error %s: %s", e.Code, e.Message)
	if e.RetryHint != "" {
		fmt.Fprintf(&b, "\nWhat to do: %s", e.RetryHint)
	}
	if e.Retryable {
		b.WriteString("\nRetrying later may succeed.")
	} else {
		b.WriteString("\nRetrying the same call will not help until that is done.")
	}
	if id := e.Evidence[evidenceJob]; id != "" {
		fmt.Fprintf(&b, "\nJob: %s", id)
	}
	return b.String()
}

// evidenceJob is the evidence key of the job an error ended.
const evidenceJob = "job_id"
