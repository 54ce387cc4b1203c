package job

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestRunJournalsEveryStepBeforeItsSideEffect drives Run against the
// simulator in real Chromium and checks the steps a conformance run cannot
// see in its answer: the submission fingerprint is on disk before the click
// and confirmed after it, the states come in order, and an extracted run
// goes through the Runner's Deliverable before it is done.
func TestRunJournalsEveryStepBeforeItsSideEffect(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatalf("chromium is required (apt-get install chromium): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := sim.New(sim.WithPace(40, 5*time.Millisecond))
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	b, err := browser.Launch(ctx, t.TempDir(), launch.Headless(), launch.WithBinary("/usr/bin/chromium"),
		launch.WithArgs(append(srv.ChromiumFlags(), "--disable-quic", "--no-first-run", "--disable-background-networking",
			"--disable-component-update", "--disable-sync")...))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	// run creates and runs one session of prompt in a fresh tab; onState
	// sees every state event with the record as it was persisted.
	run := func(t *testing.T, sp Spec, opts []RunnerOption, onState func(Event, *Session)) (*Session, []State, error) {
		t.Helper()
		tab, err := b.OpenTab(ctx, "https://chatgpt.com/")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tab.Close(context.Background()) })
		a, _, err := adapterFor(ctx, b, tab.ID())
		if err != nil {
			t.Fatal(err)
		}
		repo, st := openRepo(t, t.TempDir())
		t.Cleanup(func() { _ = st.Close() })
		r := NewRunner(repo, opts...)
		if onState != nil {
			defer r.Subscribe(func(ev Event) {
				if ev.Kind != EventState {
					return
				}
				s, err := repo.Get(ctx, ev.Session)
				if err != nil {
					t.Errorf("read the record at %s: %v", ev.State, err)
					return
				}
				onState(ev, s)
			})()
		}
		sp.Site, sp.TargetID, sp.Deadline = "chatgpt", tab.ID(), time.Now().Add(60*time.Second)
		s, err := r.Create(ctx, sp)
		if err != nil {
			t.Fatal(err)
		}
		out, runErr := r.Run(ctx, s.ID, a)
		j, err := repo.Journal(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		states := make([]State, len(j))
		for i, e := range j {
			states[i] = e.State
		}
		return out, states, runErr
	}
	sent := []State{StateResolved, StatePreflighted, StateComposed, StateSubmitting, StateSubmitted, StateStreaming, StateCompleted, StateExtracted}

	t.Run("the fingerprint is journaled before the click and confirmed after the user turn shows", func(t *testing.T) {
		srv.Reset()
		prompt := "runner check: one plain turn"
		var seen []string
		s, states, err := run(t, Spec{Prompt: prompt}, nil, func(ev Event, s *Session) {
			n := countPrompt(srv, prompt)
			switch ev.State {
			case StateSubmitting:
				if s.Fingerprint == nil || s.Fingerprint.Confirmed || n != 0 {
					t.Errorf("at submitting: fingerprint %+v, %d submissions; want an unconfirmed fingerprint and nothing sent", s.Fingerprint, n)
				}
			case StateSubmitted:
				// The page shows the user turn before the site's server has
				// necessarily counted the request: the count is checked once
				// the answer is complete.
				if s.Fingerprint == nil || !s.Fingerprint.Confirmed || s.Fingerprint.ConfirmedBy != "submit" {
					t.Errorf("at submitted: fingerprint %+v, want it confirmed by the submit", s.Fingerprint)
				}
			case StateCompleted:
				if n != 1 {
					t.Errorf("at completed: %d submissions, want 1", n)
				}
			}
			seen = append(seen, string(ev.State))
		})
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		if want := append(slices.Clone(sent), StateDone); !slices.Equal(states, want) {
			t.Fatalf("journal %v, want %v", states, want)
		}
		if s.State != StateDone || !strings.Contains(s.Answer, "runner check") || s.Content == nil || s.Transport == nil || s.Timings == nil {
			t.Fatalf("record: state %s, answer %q, content %+v, transport %+v, timings %+v", s.State, s.Answer, s.Content, s.Transport, s.Timings)
		}
		if n := countPrompt(srv, prompt); n != 1 {
			t.Fatalf("%d submissions, want exactly 1", n)
		}
		t.Logf("events: %s", strings.Join(seen, " "))
	})

	t.Run("a code-mode run goes through its Deliverable before it is done", func(t *testing.T) {
		srv.Reset()
		calls := 0
		deliver := func(ctx context.Context, s *Session, a provider.Adapter) (Delivery, error) {
			calls++
			if s.State != StateExtracted || s.Answer == "" {
				t.Errorf("the Deliverable saw state %s and answer %q, want the extracted answer", s.State, s.Answer)
			}
			return Delivery{Artifacts: []Artifact{{Name: "greet.zip", Verdict: "verified"}}, Warnings: []string{"delivered"}}, nil
		}
		s, states, err := run(t, Spec{Prompt: "runner check: code mode", CodeMode: true}, []RunnerOption{WithDeliverable(deliver)}, nil)
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		if want := append(slices.Clone(sent), StateArtifactsRetrieved, StateArtifactsVerified, StateDone); !slices.Equal(states, want) {
			t.Fatalf("journal %v, want %v", states, want)
		}
		if calls != 1 || len(s.Artifacts) != 1 || s.Artifacts[0].Name != "greet.zip" || !slices.Contains(s.Warnings, "delivered") {
			t.Fatalf("%d Deliverable calls; record artifacts %+v, warnings %q", calls, s.Artifacts, s.Warnings)
		}
	})

	t.Run("a Deliverable's refusal fails the run with the answer kept", func(t *testing.T) {
		srv.Reset()
		deliver := func(context.Context, *Session, provider.Adapter) (Delivery, error) {
			return Delivery{}, errs.New(errs.ContractViolation, "the answer breaks its contract")
		}
		s, states, err := run(t, Spec{Prompt: "runner check: refused delivery"}, []RunnerOption{WithDeliverable(deliver)}, nil)
		if errs.CodeOf(err) != errs.ContractViolation {
			t.Fatalf("run error %v, want contract_violation", err)
		}
		if want := append(slices.Clone(sent), StateFailed); !slices.Equal(states, want) {
			t.Fatalf("journal %v, want %v", states, want)
		}
		if s.State != StateFailed || s.Error == nil || s.Error.Code != errs.ContractViolation || !strings.Contains(s.Answer, "refused delivery") {
			t.Fatalf("record: state %s, error %+v, answer %q; want failed with the envelope and the answer", s.State, s.Error, s.Answer)
		}
	})
}
