package aistudio_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/aistudio"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return aistudio.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, aistudio.ID, factory, providertest.Config{Model: "flash"})
}

// The user's own turn is never read as the answer: no partial update holds
// the prompt, and the first one is already answer text.
func TestThePromptIsNeverAPartialAnswer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, aistudio.ID, factory, providertest.Setup{})
	prompt := "Tell me about the Run button"
	var partials []provider.Partial
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: prompt, OnPartial: func(p provider.Partial) { partials = append(partials, p) }})
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	want := providertest.NormalAnswer(prompt)
	for i, p := range partials {
		if !strings.HasPrefix(strings.Join(strings.Fields(want), " "), strings.Join(strings.Fields(p.Text), " ")) {
			t.Fatalf("partial %d %q is not a prefix of the answer", i, p.Text)
		}
	}
	if res.Model.Slug == "" || res.Model.Source != "dom:model_selector_card" {
		t.Fatalf("model proof %+v, want the model card read before the turn", res.Model)
	}
}
