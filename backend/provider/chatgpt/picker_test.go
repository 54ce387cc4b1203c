package chatgpt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestAModelAndEffortAreChosenOnEachPickerLayout: on each of ChatGPT's three
// 2026 picker layouts a run asking for a model and an effort sets both,
// reads them back before typing, sends them, and proves them by the
// answer's model slug.
func TestAModelAndEffortAreChosenOnEachPickerLayout(t *testing.T) {
	for _, layout := range []string{"", sim.ScenarioPickerIntelligence, sim.ScenarioPickerPower} {
		name := layout
		if name == "" {
			name = "slider (the newest)"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{Scenario: layout})
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Which model answers?", Model: "gpt-5.5", Effort: "pro"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Model.Selected != "GPT-5.5 · Pro" || res.Model.Slug != "gpt-5-5-pro" || !res.Model.Verified || res.Model.Effort != "pro" {
				t.Fatalf("model proof %+v, want GPT-5.5 · Pro read back and gpt-5-5-pro verified", res.Model)
			}
			subs := tab.H.Server.Submissions(chatgpt.ID)
			if len(subs) != 1 || subs[0].Model != "gpt-5-5-pro" {
				t.Fatalf("submissions %+v, want one sent to gpt-5-5-pro", subs)
			}
			// The page's words work too, and a middle tier is sent as a
			// thinking model with its effort.
			res, err = tab.Ask(t, ctx, providertest.Request{Prompt: "And now?", Model: "GPT-5.6 Sol", Effort: "Extra High"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Model.Selected != "GPT-5.6 Sol · Extra High" || res.Model.Slug != "gpt-5-6-thinking" || !res.Model.Verified {
				t.Fatalf("model proof %+v, want GPT-5.6 Sol · Extra High and gpt-5-6-thinking", res.Model)
			}
			if subs := tab.H.Server.Submissions(chatgpt.ID); len(subs) != 2 || subs[1].Model != "gpt-5-6-thinking" || subs[1].Effort != "max" {
				t.Fatalf("submissions %+v, want the second sent to gpt-5-6-thinking at max effort", subs)
			}
		})
	}
}

// TestAChoiceThePickerCannotMakeIsRefusedBeforeSending: a tier the plan
// lacks, a model the picker does not list and a used-up tier are refused
// with nothing typed or sent; the used-up tier is a usage cap with the day
// its tooltip names, never a cheaper tier instead.
func TestAChoiceThePickerCannotMakeIsRefusedBeforeSending(t *testing.T) {
	cases := []struct {
		name, scenario, model, effort string
		params                        map[string]string
		code                          errs.Code
		check                         func(t *testing.T, e *errs.Envelope)
	}{
		{"a plan without Pro", sim.ScenarioNoProTier, "", "pro", nil, errs.ModelUnavailable, func(t *testing.T, e *errs.Envelope) {
			if e.Evidence["offered"] != "Instant, Medium, High, Extra High" {
				t.Fatalf("offered %q, want the four tiers the slider reaches", e.Evidence["offered"])
			}
		}},
		{"a model the picker does not list", sim.ScenarioPickerIntelligence, "gpt-5.3", "", map[string]string{"models": "gpt-5-6,gpt-5-5"}, errs.ModelUnavailable, func(t *testing.T, e *errs.Envelope) {
			if e.Evidence["offered"] != "GPT-5.6 Sol, GPT-5.5" {
				t.Fatalf("offered %q, want the two models the page lists", e.Evidence["offered"])
			}
		}},
		{"a used-up tier", sim.ScenarioTierExhausted, "", "pro", nil, errs.UsageCap, func(t *testing.T, e *errs.Envelope) {
			at, err := time.Parse(time.RFC3339, e.Evidence["resets_at"])
			if err != nil || !at.After(time.Now()) || !strings.Contains(e.Evidence["notice"], "Limit reached") {
				t.Fatalf("envelope %+v, want the tooltip's notice and a reset day ahead", e)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{Scenario: tc.scenario, Params: tc.params})
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Must not be sent", Model: tc.model, Effort: tc.effort})
			if res != nil || errs.CodeOf(err) != tc.code {
				t.Fatalf("Ask = %+v, %v; want %s", res, err, tc.code)
			}
			if tc.check != nil {
				tc.check(t, errs.From(err))
			}
			if n := tab.H.Server.SubmissionCount(chatgpt.ID); n != 0 {
				t.Fatalf("%d submissions, want none", n)
			}
		})
	}
}

// TestARerouteIsAWarning: an answer from another model than the one the
// turn was sent to (resolved_model_slug unlike model_slug) says so in the
// run's warnings when nothing was asked for, and fails the model proof
// when a model was.
func TestARerouteIsAWarning(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{})
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Who answers? " + sim.Directive(sim.ScenarioRerouted)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "rerouted") || res.Model.Slug != "gpt-5-5-thinking" {
		t.Fatalf("model %+v warnings %q, want gpt-5-5-thinking and a reroute warning", res.Model, res.Warnings)
	}
	res, err = tab.Ask(t, ctx, providertest.Request{Prompt: "Who answers now? " + sim.Directive(sim.ScenarioRerouted), Model: "gpt-5.6"})
	if res != nil || errs.CodeOf(err) != errs.ModelMismatch {
		t.Fatalf("Ask = %+v, %v; want model_mismatch", res, err)
	}
}
