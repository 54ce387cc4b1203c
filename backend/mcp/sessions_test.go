package mcp_test

import (
	"context"
	"testing"

	"github.com/ferrydesk/ferry/backend/mcp"
	"github.com/ferrydesk/ferry/backend/mcp/mcptest"
	"github.com/ferrydesk/ferry/backend/service"
)

// listingService answers ListSessions with one run that asked for a tool,
// keeping the query it was asked.
type listingService struct {
	stubService
	asked *service.SessionQuery
}

func (s listingService) ListSessions(_ context.Context, _ service.Caller, q service.SessionQuery) ([]service.SessionSummary, error) {
	*s.asked = q
	run := &service.Run{ID: "r1", Site: "chatgpt", State: "done", ToolRequested: "web-search"}
	return []service.SessionSummary{{ID: "r1", Site: "chatgpt", Title: "tides today", Extra: &service.SessionExtra{Listed: service.Listed{Session: run}, Total: 1}}}, nil
}

func TestTheSessionsToolFiltersByToolAndNamesEachRunsTool(t *testing.T) {
	ctx := context.Background()
	var asked service.SessionQuery
	cs := mcptest.Connect(t, mcp.New(listingService{asked: &asked}, mcp.Options{Version: "test"}).SDK(), "sessions-test", nil)
	res := mcptest.Call(t, ctx, cs, "sessions", map[string]any{"tool": "web-search", "site": "chatgpt"})
	mcptest.CheckOutput(t, ctx, cs, "sessions", res)
	if asked.Tool != "web-search" || asked.Site != "chatgpt" {
		t.Fatalf("the service was asked %+v", asked)
	}
	var out mcp.SessionsResult
	mcptest.Decode(t, res, &out)
	if len(out.Sessions) != 1 || out.Sessions[0].Tool != "web-search" {
		t.Fatalf("listed %+v", out.Sessions)
	}
}
