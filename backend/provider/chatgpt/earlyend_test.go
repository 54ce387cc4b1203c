package chatgpt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// TestACodeInterpreterPhaseDoesNotEndTheTurnOnTheDOMPath: with the stream
// disabled, a turn whose code interpreter ran and then stayed quiet for 2 s
// (longer than the quiet window) before the final answer ends with that
// answer, not with the code or an empty body.
func TestACodeInterpreterPhaseDoesNotEndTheTurnOnTheDOMPath(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{
		Overrides: []site.Override{{ID: chatgpt.ID, Stream: &site.StreamOverride{Disabled: true}}},
	})
	prompt := "Build the project\n" + sim.Directive(sim.ScenarioCodeZip, "pause", "2s")
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: prompt})
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if res.Transport.Source != "dom" {
		t.Fatalf("transport %+v, want the DOM rules", res.Transport)
	}
	if !strings.Contains(res.Answer, "I built the project") || !strings.HasSuffix(strings.TrimSpace(res.Answer), "/mnt/data/project.zip") {
		t.Fatalf("answer %q is not the whole final answer: the turn ended early", res.Answer)
	}
	if n := tab.H.Server.SubmissionCount(chatgpt.ID); n != 1 {
		t.Fatalf("%d submissions, want 1", n)
	}
	t.Logf("wait %d ms (%s)", res.Timings.WaitMS, res.Transport.CompleteReason)
}
