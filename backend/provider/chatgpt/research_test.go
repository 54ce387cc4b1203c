package chatgpt_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/chatgptsim"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/runs"
)

// TestADeepResearchEndsWithItsWholeReport: a deep research that takes
// minutes on the site (compressed here to seconds) is followed through its
// plan and research, its stages reported as they change, and ends only with
// its whole report, read from the report frame the page cannot reach: the
// answer and the saved Markdown are the report the site wrote, the prompt
// sent once. A plan that waits is started when the run asks for it; a
// report frame that shows late is waited for; a planning frame and tool
// stubs are never taken for the report. A prompt the site answers without
// research, and a plan that never starts, end research_not_started.
func TestADeepResearchEndsWithItsWholeReport(t *testing.T) {
	cases := []struct {
		name, scenario string
		params         []string
		confirm        bool
		deadline       time.Duration // the run's, when it is the point
		code           errs.Code
	}{
		{name: "a research that starts after its countdown", scenario: chatgptsim.ScenarioResearch, params: []string{"countdown", "1s", "research", "3s"}},
		{name: "a plan the run starts at once", scenario: chatgptsim.ScenarioResearchPlanWaits, params: []string{"research", "2s"}, confirm: true},
		{name: "a report frame that shows late", scenario: chatgptsim.ScenarioResearchReportLate, params: []string{"countdown", "1s", "research", "2s", "late", "2s"}},
		{name: "a planning frame and tool stubs before the report", scenario: chatgptsim.ScenarioResearchStub, params: []string{"countdown", "1s", "research", "2s", "stub", "2s"}},
		{name: "a page that stops hearing of the research is opened again for its report", scenario: chatgptsim.ScenarioResearchDisconnect, params: []string{"countdown", "1s", "research", "2s", "drop", "500ms"}},
		{name: "a prompt answered without research", scenario: chatgptsim.ScenarioResearchNoPlan, code: errs.ResearchNotStarted},
		{name: "a plan that waits for a start nobody gives", scenario: chatgptsim.ScenarioResearchPlanWaits, deadline: 20 * time.Second, code: errs.ResearchNotStarted},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), cmpDuration(c.deadline, 2*time.Minute))
			defer cancel()
			tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{})
			tab.Adapter.(*chatgpt.Adapter).ConfirmResearchPlan(c.confirm)
			dir := t.TempDir()
			prompt := "Research the harbour trade " + sim.Directive(c.scenario, c.params...)
			var mu sync.Mutex
			var stages []string
			var kept string
			home := runs.AskHome(dir, 0)
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: prompt, Tool: "deep-research",
				OnPartial: func(p provider.Partial) {
					mu.Lock()
					defer mu.Unlock()
					if p.Stage != "" && !slices.Contains(stages, p.Stage) {
						stages = append(stages, p.Stage)
					}
				},
				Deliverable: func(ctx context.Context, s *job.Session, a provider.Adapter) (job.Delivery, error) {
					kept = s.Answer
					return home(ctx, s, a)
				}})
			subs := tab.H.Server.Submissions(chatgpt.ID)
			if len(subs) != 1 || !slices.Contains(subs[0].Tools, chatgpt.ResearchHint) {
				t.Fatalf("%d submissions (%+v), want the prompt sent once with the deep research hint", len(subs), subs)
			}
			files, _ := os.ReadDir(dir)
			if c.code != "" {
				if res != nil || errs.CodeOf(err) != c.code {
					t.Fatalf("Ask = %+v, %v; want %s", res, err, c.code)
				}
				if c.scenario == chatgptsim.ScenarioResearchNoPlan && (kept == "" || strings.Contains(kept, "Research completed")) {
					t.Fatalf("the run kept the answer %q, want the site's plain answer", kept)
				}
				if len(files) != 0 {
					t.Fatalf("the run that did no research saved %v", files)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			header, report := chatgptsim.ResearchReport(prompt)
			if res.Answer != report {
				t.Fatalf("the answer is\n%s\nwant the report\n%s", res.Answer, report)
			}
			if res.Tool == nil || !res.Tool.Verified {
				t.Fatalf("tool proof %+v, want the deep research verified by its request", res.Tool)
			}
			checkSavedReport(t, res.Report, report, header, prompt, res.ConversationID)
			if len(files) != 2 {
				t.Fatalf("the output directory holds %v, want the report and its sidecar", files)
			}
			mu.Lock()
			seen := strings.Join(stages, " | ")
			mu.Unlock()
			if !strings.Contains(seen, "planning") || !strings.Contains(seen, "researching") || !strings.Contains(seen, " sources") {
				t.Fatalf("the run's stages were %q, want its planning and its research with a count of sources", seen)
			}
			if reopened := strings.Contains(seen, "opening the conversation again"); reopened != (c.scenario == chatgptsim.ScenarioResearchDisconnect) {
				t.Fatalf("the run's stages were %q: the conversation reopened %v, want only for a page that stopped hearing of the research", seen, reopened)
			}
			// The report is not the page's: the turn's own text is empty,
			// and the page cannot reach into the report's frame.
			var page struct {
				Turn     string `json:"turn"`
				Frames   int    `json:"frames"`
				Reached  bool   `json:"reached"`
				Reported bool   `json:"reported"`
			}
			if err := tab.Page.EvalInto(ctx, &page, `() => {
  const turns = document.querySelectorAll('[data-conversation-role="assistant"]');
  const turn = turns[turns.length - 1];
  const frames = document.querySelectorAll('iframe[title="internal://deep-research"]');
  let reached = false;
  for (const f of frames) { try { reached = reached || !!(f.contentDocument && f.contentDocument.body); } catch (e) {} }
  return {turn: turn.innerText.trim(), frames: frames.length, reached, reported: document.body.innerText.includes('Research completed')};
}`); err != nil {
				t.Fatal(err)
			}
			if c.scenario == chatgptsim.ScenarioResearch && page.Turn != "" || page.Frames != 1 || page.Reached || page.Reported {
				t.Fatalf("the page shows %+v; want an empty turn, one report frame it cannot reach and no report text", page)
			}
		})
	}
}

func cmpDuration(a, b time.Duration) time.Duration {
	if a != 0 {
		return a
	}
	return b
}

// checkSavedReport checks the saved report against the site's and its
// sidecar's provenance.
func checkSavedReport(t *testing.T, art *record.Artifact, report, header, prompt, conversation string) {
	t.Helper()
	if art == nil || art.Kind != record.ArtifactReport || art.Verdict != "verified" || !strings.HasSuffix(art.Path, ".md") {
		t.Fatalf("report artifact %+v, want a verified .md", art)
	}
	got, err := os.ReadFile(art.Path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(got)
	if string(got) != report || hex.EncodeToString(sum[:]) != art.SHA256 || int64(len(got)) != art.Bytes {
		t.Fatalf("%s holds\n%s\n(sha256 %x), want the report the site wrote", art.Path, got, sum)
	}
	side, err := os.ReadFile(art.Path + ".provenance.json")
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(side, &p); err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte(prompt))
	if p["kind"] != "report" || p["site"] != chatgpt.ID || p["conversationId"] != conversation || p["promptSha256"] != hex.EncodeToString(digest[:]) ||
		p["header"] != header || p["citations"] != float64(19) || p["searches"] != float64(328) || p["sources"].(float64) < 1 || p["sha256"] != art.SHA256 {
		t.Fatalf("provenance %s", side)
	}
}
