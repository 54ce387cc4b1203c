package grok_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/grok"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return grok.New(env) }

// Grok's model aliases carry no proof substrings in the registry, so the
// suite's model case is left out; TestSelectedModelAnswers covers it.
func TestConformance(t *testing.T) {
	providertest.Run(t, grok.ID, factory, providertest.Config{})
}

// TestSelectedModelAnswers picks "fast" in the picker and demands that the
// stream names the model the site ran, not the default one.
func TestSelectedModelAnswers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, grok.ID, factory, providertest.Setup{})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Which model are you?", Model: "fast"})
	if err != nil {
		t.Fatalf("Ask with model fast: %v", err)
	}
	if res.Model.Selected != "Fast" || res.Model.Slug != "grok-4-fast" || res.Model.Source != "stream:modelResponse.model" {
		t.Fatalf("model proof %+v, want Fast selected and grok-4-fast named by the stream", res.Model)
	}
	if res.Answer != providertest.NormalAnswer("Which model are you?") {
		t.Fatalf("answer %q", res.Answer)
	}
}

// TestAnAntiBotRefusalIsAskedOfTheUserAndNeverResent: since 2026-06 the
// anti-bot layer answers 403 {"code":7,…} to a request it distrusts; the
// run says to clear it in the tab, and nothing is sent again.
func TestAnAntiBotRefusalIsAskedOfTheUserAndNeverResent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, grok.ID, factory, providertest.Setup{})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Hello " + sim.Directive(sim.ScenarioAntiBot), Cooldown: 50 * time.Millisecond})
	if res != nil || errs.CodeOf(err) != errs.CloudflareChallenge {
		t.Fatalf("Ask = %+v, %v; want cloudflare_challenge", res, err)
	}
	e := errs.From(err)
	if e.Evidence["status"] != "403" || e.Evidence["error_code"] != "7" || !strings.Contains(e.RetryHint, "reload") {
		t.Fatalf("envelope %+v, want status 403, code 7 and a hint to reload the tab", e)
	}
	if subs := tab.H.Server.Submissions(grok.ID); len(subs) != 1 || !subs[0].Refused {
		t.Fatalf("submissions %+v, want the one refused send", subs)
	}
}

func TestNewRefusesAnotherSite(t *testing.T) {
	_, err := grok.New(provider.Env{Site: site.Site{ID: "chatgpt"}})
	if errs.CodeOf(err) != errs.BadInput {
		t.Fatalf("New for site chatgpt: %v, want bad_input", err)
	}
}

// TestATierGatedModeIsACapabilityTheAccountLacks: a mode the plan lacks
// ("Requires TIER_SUPERGROK_HEAVY", 2026-08) is capability_missing naming
// the tier, sent once and never again.
func TestATierGatedModeIsACapabilityTheAccountLacks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, grok.ID, factory, providertest.Setup{Scenario: sim.ScenarioTierGated})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Think hard", Model: "heavy", Cooldown: time.Second})
	if res != nil || errs.CodeOf(err) != errs.CapabilityMissing {
		t.Fatalf("Ask = %+v, %v; want capability_missing", res, err)
	}
	if e := errs.From(err); e.Evidence["tier"] != "TIER_SUPERGROK_HEAVY" || !strings.Contains(e.RetryHint, "--model") {
		t.Fatalf("envelope %+v, want the tier and a hint to pick another mode", e)
	}
	if n := tab.H.Server.SubmissionCount(grok.ID); n != 1 {
		t.Fatalf("%d sends, want the one the site refused", n)
	}
}

// TestAModeTheMenuLacksIsRefusedListingItsModes: a model the settings name
// but the page's menu does not list is refused with nothing sent, naming
// the modes the menu offers.
func TestAModeTheMenuLacksIsRefusedListingItsModes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, grok.ID, factory, providertest.Setup{Overrides: []site.Override{{ID: grok.ID,
		Models: []site.Model{{Alias: "mini", Labels: []string{"Grok Mini"}}}}}})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Must not be sent", Model: "mini"})
	if res != nil || errs.CodeOf(err) != errs.ModelUnavailable {
		t.Fatalf("Ask = %+v, %v; want model_unavailable", res, err)
	}
	if e := errs.From(err); e.Evidence["offered"] != "Auto, Fast, Expert, Heavy" {
		t.Fatalf("envelope %+v, want the menu's modes listed", e)
	}
	if n := tab.H.Server.SubmissionCount(grok.ID); n != 0 {
		t.Fatalf("%d sends, want none", n)
	}
}
