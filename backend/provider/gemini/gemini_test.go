package gemini_test

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/gemini"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
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
