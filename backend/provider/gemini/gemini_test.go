package gemini_test

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/gemini"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return gemini.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, gemini.ID, factory, providertest.Config{
		Model: "pro",
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
