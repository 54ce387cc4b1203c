package service

import (
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TestADeepResearchWaitsLongerUnlessTold: an ask without a timeout gets
// the default, a deep research the longer one, a given timeout stands;
// confirmPlan goes only with the deep-research tool.
func TestADeepResearchWaitsLongerUnlessTold(t *testing.T) {
	cases := []struct {
		name string
		req  JobRequest
		want time.Duration
	}{
		{name: "a plain ask", req: JobRequest{Kind: KindAsk, Site: "chatgpt", Prompt: "x"}, want: 20 * time.Minute},
		{name: "a deep research", req: JobRequest{Kind: KindAsk, Site: "chatgpt", Prompt: "x", Tool: "deep-research"}, want: 45 * time.Minute},
		{name: "a deep research given its timeout", req: JobRequest{Kind: KindAsk, Site: "chatgpt", Prompt: "x", Tool: "deep-research", TimeoutSeconds: 90}, want: 90 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.req.RunTimeout(); got != c.want {
				t.Fatalf("RunTimeout = %s, want %s", got, c.want)
			}
		})
	}
	bad := JobRequest{Kind: KindAsk, Site: "chatgpt", Prompt: "x", Tool: "web-search", ConfirmPlan: true}
	if err := bad.Validate(); errs.CodeOf(err) != errs.BadInput {
		t.Fatalf("confirmPlan with web search: %v, want bad_input", err)
	}
	good := JobRequest{Kind: KindAsk, Site: "chatgpt", Prompt: "x", Tool: "deep-research", ConfirmPlan: true}
	if err := good.Validate(); err != nil {
		t.Fatalf("confirmPlan with deep research: %v", err)
	}
}
