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

func factory(env provider.Env) (provider.Adapter, error) { return deepseek.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, deepseek.ID, factory, providertest.Config{Model: "expert"})
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

// TestDeepThinkIsTheEffort: --effort deepthink turns the DeepThink toggle on
// before typing (the send asks for thinking), standard turns it off again,
// with a model radio alongside; a page without the toggle refuses with
// nothing sent.
func TestDeepThinkIsTheEffort(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, deepseek.ID, factory, providertest.Setup{})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Think first", Model: "expert", Effort: "deepthink"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Model.Selected == "" || !strings.HasSuffix(res.Model.Selected, "DeepThink") || res.Model.Slug != "expert" {
		t.Fatalf("model proof %+v, want expert and DeepThink", res.Model)
	}
	if _, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Quickly now", Effort: "standard"}); err != nil {
		t.Fatal(err)
	}
	subs := tab.H.Server.Submissions(deepseek.ID)
	if len(subs) != 2 || subs[0].Effort != "deepthink" || subs[0].Model != "expert" || subs[1].Effort != "standard" {
		t.Fatalf("submissions %+v, want expert with DeepThink, then standard", subs)
	}
	if err := tab.Page.EvalInto(ctx, new(bool), `() => { document.querySelectorAll('.ds-toggle-button').forEach((b) => b.remove()); return true; }`); err != nil {
		t.Fatal(err)
	}
	res, err = tab.Ask(t, ctx, providertest.Request{Prompt: "Must not be sent", Effort: "deepthink"})
	if res != nil || errs.CodeOf(err) != errs.ModelUnavailable {
		t.Fatalf("Ask = %+v, %v; want model_unavailable", res, err)
	}
	if n := tab.H.Server.SubmissionCount(deepseek.ID); n != 2 {
		t.Fatalf("%d sends, want the two before", n)
	}
}
