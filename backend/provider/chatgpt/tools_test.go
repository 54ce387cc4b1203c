package chatgpt_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/record"
)

// TestAToolIsChosenFromTheMenuAndProvenByItsPill: each of ChatGPT's tools
// is chosen from the composer's "+" menu with trusted clicks after the
// prompt is typed, proven by its pill in the editor with the prompt
// unchanged, and goes out in the send's system_hints with the prompt alone
// (the pill's words are not part of it). A row the menu lacks, a pill that
// never shows and a tool that empties the composer are refused with
// nothing sent, saying what the page showed.
func TestAToolIsChosenFromTheMenuAndProvenByItsPill(t *testing.T) {
	cases := []struct {
		name, scenario, tool string
		params               map[string]string
		code                 errs.Code
		evidence             string // a word the refusal's evidence holds
	}{
		{name: "web search", tool: "web-search"},
		{name: "an image", tool: "image"},
		{name: "deep research, whose pill is known by its words", tool: "deep-research"},
		{name: "web search under More", scenario: sim.ScenarioToolsMore, tool: "web-search"},
		{name: "a pill that shows after 1.5 s", scenario: sim.ScenarioToolPillLate, tool: "web-search", params: map[string]string{"pill_ms": "1500"}},
		{name: "a menu without the row", scenario: sim.ScenarioToolRowMissing, tool: "deep-research", code: errs.ToolUnavailable, evidence: "Add photos & files"},
		{name: "a pill that never shows", scenario: sim.ScenarioToolPillMissing, tool: "web-search", code: errs.ToolUnavailable},
		{name: "a tool that empties the composer", scenario: sim.ScenarioToolPromptCleared, tool: "image", code: errs.ComposerMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{Scenario: tc.scenario, Params: tc.params})
			tool, err := tab.Site.Tool(tc.tool)
			if err != nil {
				t.Fatal(err)
			}
			a := tab.Adapter
			chooser, ok := a.(provider.ToolChooser)
			if !ok {
				t.Fatal("the ChatGPT adapter chooses no tools")
			}
			prompt := "What happened at the harbour today?\nTwo lines."
			if err := a.Ready(ctx); err != nil {
				t.Fatal(err)
			}
			if err := a.Compose(ctx, prompt); err != nil {
				t.Fatal(err)
			}
			got, err := chooser.ChooseTool(ctx, tool, prompt)
			if tc.code != "" {
				e := errs.From(err)
				if err == nil || e.Code != tc.code || !strings.Contains(e.Message, "nothing was sent") || e.Evidence["tool"] != tool.Name || e.Evidence["sent"] != "false" {
					t.Fatalf("ChooseTool = %q, %v; want %s saying nothing was sent", got, err, tc.code)
				}
				t.Logf("refused: %v", err)
				if tc.evidence != "" && !strings.Contains(e.Evidence["rows"], tc.evidence) {
					t.Errorf("evidence %v does not say what the menu showed (%q)", e.Evidence, tc.evidence)
				}
				if n := tab.H.Server.SubmissionCount(chatgpt.ID); n != 0 {
					t.Fatalf("%d submissions, want none", n)
				}
				return
			}
			if err != nil || got != tool.Labels[0] {
				t.Fatalf("ChooseTool = %q, %v; want %q", got, err, tool.Labels[0])
			}
			turn, err := a.Submit(ctx, prompt)
			if err != nil {
				t.Fatal(err)
			}
			defer turn.Close()
			if err := a.Wait(ctx, turn, nil); err != nil {
				t.Fatal(err)
			}
			subs := tab.H.Server.Submissions(chatgpt.ID)
			if len(subs) != 1 || subs[0].Prompt != prompt || !slices.Equal(subs[0].Tools, []string{tool.Request}) {
				t.Fatalf("submissions %+v, want the prompt alone sent once with the hint %q", subs, tool.Request)
			}
		})
	}
}

// TestARunWithAToolRecordsItsProof: a run asking for a tool records the
// tool, the pill's words and the request's system hint, verified by the
// request the send went out with; a send whose request did not carry the
// tool (its pill showed) keeps its answer and ends tool_unavailable, saying
// it was sent; a site without tools refuses before anything is typed.
func TestARunWithAToolRecordsItsProof(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Search the harbour news", Tool: "Web search"})
	if err != nil {
		t.Fatal(err)
	}
	want := record.ToolProof{Requested: "web-search", Selected: "Web search", Request: "search", Verified: true}
	if res.Tool == nil || *res.Tool != want {
		t.Fatalf("tool proof %+v, want %+v", res.Tool, want)
	}
	if res.Answer != searchAnswer("Search the harbour news") {
		t.Fatalf("answer %q", res.Answer)
	}

	tab = providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{Scenario: sim.ScenarioToolNotSent})
	res, err = tab.Ask(t, ctx, providertest.Request{Prompt: "Draw the harbour", Tool: "image"})
	e := errs.From(err)
	if res != nil || e.Code != errs.ToolUnavailable || e.Evidence["sent"] != "true" {
		t.Fatalf("Ask = %+v, %v; want tool_unavailable saying the prompt was sent", res, err)
	}
	subs := tab.H.Server.Submissions(chatgpt.ID)
	if len(subs) != 1 || len(subs[0].Tools) != 0 {
		t.Fatalf("submissions %+v, want one sent without the tool", subs)
	}
}
