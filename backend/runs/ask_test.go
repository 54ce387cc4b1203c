package runs

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestAsk runs prompts through Pipeline.Ask against the simulator in headless
// Chromium, with the caller's browser (as the desktop app and the hub pass
// theirs), and reads the records back from the store.
func TestAsk(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv(config.EnvConfigDir, t.TempDir())
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	r := openTestPipeline(t, t.TempDir())

	var tab string
	t.Run("a run is journaled, reported as events and recorded with its answer and proof", func(t *testing.T) {
		var states []job.State
		partials := 0
		prompt := "Core asks about canals"
		s, err := r.Ask(ctx, AskRequest{Site: "chatgpt", Prompt: prompt, Browser: h.Browser, Origin: job.OriginDesktop, Timeout: 45 * time.Second,
			OnEvent: func(ev job.Event) {
				switch ev.Kind {
				case job.EventState:
					states = append(states, ev.State)
				case job.EventPartial:
					partials++
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		if s.State != job.StateDone || s.Answer != providertest.NormalAnswer(prompt) || s.Origin != job.OriginDesktop {
			t.Fatalf("record: state %s origin %s answer %q", s.State, s.Origin, s.Answer)
		}
		want := []job.State{job.StateResolved, job.StatePreflighted, job.StateComposed, job.StateSubmitting, job.StateSubmitted,
			job.StateStreaming, job.StateCompleted, job.StateExtracted, job.StateDone}
		if len(states) != len(want) || partials == 0 {
			t.Fatalf("events: states %v, %d partials", states, partials)
		}
		for i := range want {
			if states[i] != want[i] {
				t.Fatalf("events: states %v, want %v", states, want)
			}
		}
		res := s.Result()
		if res.Model.Slug != "gpt-5-6-thinking" || res.Content.Source != "conversation_api" || res.Transport.Source != "stream" ||
			!res.Routing.TabWasCreated || res.Routing.ControlledTabID != s.TargetID || res.Timings.TotalMS <= 0 {
			t.Fatalf("result proof %+v", res)
		}
		repo, err := r.d.History(ctx)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := repo.Get(ctx, s.ID)
		if err != nil || stored.Answer != s.Answer || stored.ConversationURL == "" {
			t.Fatalf("stored record %+v (%v)", stored, err)
		}
		// The caller's browser stays connected after the run.
		if _, err := h.Browser.Targets(ctx, nil); err != nil {
			t.Fatalf("the caller's browser was closed: %v", err)
		}
		tab = s.TargetID
	})

	t.Run("a run refused before the send is recorded as failed with its envelope", func(t *testing.T) {
		if tab == "" {
			t.Fatal("no tab from the first run")
		}
		h.Server.Reset()
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		p, err := h.Browser.Page(ctx, tab)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
			t.Fatal(err)
		}
		s, err := r.Ask(ctx, AskRequest{TargetID: tab, Prompt: "refused?", Browser: h.Browser, Timeout: 30 * time.Second})
		if !errs.Has(err, errs.LoginRequired) || s == nil {
			t.Fatalf("Ask = %v, %v; want login_required with the record", s, err)
		}
		if s.State != job.StateFailed || s.Error == nil || s.Error.Code != errs.LoginRequired || errs.From(err).Evidence["session"] != s.ID {
			t.Fatalf("record: state %s error %+v; envelope evidence %v", s.State, s.Error, errs.From(err).Evidence)
		}
		if s.Origin != job.OriginCLI || h.Server.SubmissionCount(sim.ChatGPT) != 0 {
			t.Fatalf("origin %s, %d submissions", s.Origin, h.Server.SubmissionCount(sim.ChatGPT))
		}
	})

	t.Run("bad requests fail before any record or browser", func(t *testing.T) {
		for _, req := range []AskRequest{
			{Prompt: "no site nor tab"},
			{Site: "chatgpt", Prompt: "  "},
			{Site: "nosuchsite", Prompt: "x"},
			{Site: "chatgpt", Prompt: "x", Timeout: -time.Second},
		} {
			s, err := r.Ask(ctx, req)
			if s != nil || errs.ClassOf(err) != errs.ClassBadInput {
				t.Fatalf("Ask(%+v) = %v, %v; want a bad-input envelope and no record", req, s, err)
			}
		}
	})
}
