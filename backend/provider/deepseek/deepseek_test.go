package deepseek_test

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/deepseek"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func TestConformance(t *testing.T) {
	providertest.Run(t, deepseek.ID, func(env provider.Env) (provider.Adapter, error) { return deepseek.New(env) },
		providertest.Config{Model: "expert"})
}

func TestNewRefusesAnotherSite(t *testing.T) {
	_, err := deepseek.New(provider.Env{Site: site.Site{ID: "chatgpt"}})
	if errs.CodeOf(err) != errs.BadInput {
		t.Fatalf("New for site chatgpt: %v, want bad_input", err)
	}
}
