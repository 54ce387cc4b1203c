package deepseek_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/deepseek"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
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

// TestAnOutdatedClientIsReloadedOnceThenReported: DeepSeek refuses a send
// from a tab holding an outdated build of its web client
// (CLIENT_VERSION_TOO_LOW); nothing was sent, so the run reloads the tab
// and sends once more, and reports when the reloaded tab is refused too.
func TestAnOutdatedClientIsReloadedOnceThenReported(t *testing.T) {
	factory := func(env provider.Env) (provider.Adapter, error) { return deepseek.New(env) }
	for _, tc := range []struct {
		name  string
		loads string
		ok    bool
	}{
		{"a tab reloaded once sends", "1", true},
		{"a tab still outdated after the reload is reported", "2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tab := providertest.Open(t, ctx, deepseek.ID, factory, providertest.Setup{Scenario: sim.ScenarioClientOutdated, Params: map[string]string{"loads": tc.loads}})
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Hello from an old tab", Cooldown: 50 * time.Millisecond})
			subs := tab.H.Server.Submissions(deepseek.ID)
			if len(subs) != 2 || !subs[0].Refused || subs[1].Refused != !tc.ok {
				t.Fatalf("submissions %+v, want a refused one and then one %s", subs, map[bool]string{true: "answered", false: "refused"}[tc.ok])
			}
			if tc.ok {
				if err != nil || res.Answer != providertest.NormalAnswer("Hello from an old tab") || !strings.Contains(strings.Join(res.Warnings, "\n"), "outdated web client") {
					t.Fatalf("Ask = %+v, %v; want the answer with a warning about the reload", res, err)
				}
				return
			}
			e := errs.From(err)
			if res != nil || e.Code != errs.GenerationError || e.Evidence["reason"] != provider.ReasonClientOutdated || e.Evidence["retried"] != "once" || !strings.Contains(e.Message, "reloading the tab once") {
				t.Fatalf("Ask = %+v, %+v; want the outdated client reported after one reload", res, e)
			}
		})
	}
}
