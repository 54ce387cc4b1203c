package gemini_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/gemini"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return gemini.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, gemini.ID, factory, providertest.Config{
		Model:  "pro",
		Images: func(dir string) job.Deliverable { return runs.ImagesHome(dir, 0) },
		Deviations: map[string]providertest.Deviation{
			sim.ScenarioRateLimit: {Code: errs.UsageCap, Why: "Gemini has no separate rate-limit notice: a refused send is error 1037 and \"Usage limit reached\" either way"},
		},
	})
}

// TestAnErrorTheStreamNamesIsReportedWithItsCode: since 2026-07 a failed
// Gemini turn comes as a BardErrorInfo frame after its partial answer; the
// run is a generation error naming the code, never the partial answer.
func TestAnErrorTheStreamNamesIsReportedWithItsCode(t *testing.T) {
	for _, path := range []string{"stream", "dom"} {
		t.Run("on the "+path+" path", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			setup := providertest.Setup{}
			if path == "dom" {
				setup.Overrides = []site.Override{{ID: gemini.ID, Stream: &site.StreamOverride{Disabled: true}}}
			}
			tab := providertest.Open(t, ctx, gemini.ID, factory, setup)
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Tell me " + sim.Directive(sim.ScenarioErrorInfo, "code", "1013")})
			if res != nil || errs.CodeOf(err) != errs.GenerationError {
				t.Fatalf("Ask = %+v, %v; want generation_error", res, err)
			}
			if e := errs.From(err); path == "stream" && e.Evidence["error_code"] != "1013" {
				t.Fatalf("envelope %+v, want error_code 1013", e)
			}
			if n := tab.H.Server.SubmissionCount(gemini.ID); n != 1 {
				t.Fatalf("%d submissions, want 1", n)
			}
		})
	}
}

// TestAModeTheMenuLacksIsRefusedListingItsModes: a mode the settings name
// but Gemini's menu does not list is refused with nothing sent, naming the
// modes the menu offers.
func TestAModeTheMenuLacksIsRefusedListingItsModes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, gemini.ID, factory, providertest.Setup{Overrides: []site.Override{{ID: gemini.ID,
		Models: []site.Model{{Alias: "ultra", Labels: []string{"Ultra"}}}}}})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Must not be sent", Model: "ultra"})
	if res != nil || errs.CodeOf(err) != errs.ModelUnavailable {
		t.Fatalf("Ask = %+v, %v; want model_unavailable", res, err)
	}
	if offered := errs.From(err).Evidence["offered"]; !strings.Contains(offered, "Flash") || !strings.Contains(offered, "Pro") {
		t.Fatalf("offered %q, want the menu's modes", offered)
	}
	if n := tab.H.Server.SubmissionCount(gemini.ID); n != 0 {
		t.Fatalf("%d sends, want none", n)
	}
}
