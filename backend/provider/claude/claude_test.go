package claude_test

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/claude"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func TestConformance(t *testing.T) {
	providertest.Run(t, claude.ID, func(env provider.Env) (provider.Adapter, error) { return claude.New(env) },
		providertest.Config{Model: "opus", Layouts: []string{sim.ScenarioOlderTurns}})
}

func TestNewRefusesAnotherSite(t *testing.T) {
	_, err := claude.New(provider.Env{Site: site.Site{ID: "chatgpt"}})
	if errs.CodeOf(err) != errs.BadInput {
		t.Fatalf("New for site chatgpt: %v, want bad_input", err)
	}
}
