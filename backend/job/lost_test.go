package job

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// lostAdapter plays a site whose browser is killed at one step: that step
// fails with what a cut call sees (failWith), and from then on TabLost says
// the browser went away.
type lostAdapter struct {
	at       State // the step that fails: composed (Compose), submitted (Submit), streaming (Wait)
	failWith errs.Code
	lost     bool
	sent     int
}

func (a *lostAdapter) Site() site.Site {
	s, _ := site.Builtin().Get("chatgpt")
	return s
}
func (a *lostAdapter) TargetID() string                { return "tab-1" }
func (a *lostAdapter) Ready(ctx context.Context) error { return nil }
func (a *lostAdapter) fail(step State) error {
	if step != a.at {
		return nil
	}
	a.lost = true
	return errs.New(a.failWith, "the cut call's own report")
}
func (a *lostAdapter) Compose(ctx context.Context, prompt string) error { return a.fail(StateComposed) }
func (a *lostAdapter) Submit(ctx context.Context, prompt string) (*provider.Turn, error) {
	if err := a.fail(StateSubmitted); err != nil {
		return nil, err
	}
	a.sent++
	return &provider.Turn{Prompt: prompt, SentAt: time.Now()}, nil
}
func (a *lostAdapter) Wait(ctx context.Context, t *provider.Turn, onPartial func(provider.Partial)) error {
	return a.fail(StateStreaming)
}
func (a *lostAdapter) Extract(ctx context.Context, t *provider.Turn) (*provider.Answer, error) {
	return &provider.Answer{Text: "an answer", Source: "dom"}, nil
}
func (a *lostAdapter) FindTurn(ctx context.Context, prompt string, since time.Time) (*provider.Turn, bool, error) {
	return &provider.Turn{Prompt: prompt, SentAt: since}, true, nil
}
func (a *lostAdapter) TabLost(ctx context.Context) error {
	if !a.lost {
		return nil
	}
	return errs.New(errs.BrowserDisconnected, "the connection to the browser dropped")
}

var (
	_ provider.Adapter = (*lostAdapter)(nil)
	_ TabWatcher       = (*lostAdapter)(nil)
)

func TestALostBrowserIsBrowserDisconnectedAndKeepsASentRunCollectable(t *testing.T) {
	const conv = "https://chatgpt.com/c/lost-conv"
	cases := []struct {
		name      string
		conv      string // the conversation the run continues ("" = a new chat whose address was never learnt)
		at        State
		failWith  errs.Code
		wantState State
		wantHint  string
	}{
		{"a browser killed while the answer streams leaves the run streaming, to be reattached from its conversation", conv, StateStreaming, errs.GenerationError, StateStreaming, "open the conversation and collect it without sending the prompt again"},
		{"a run lost mid-answer without a known conversation points at the site's history", "", StateStreaming, errs.GenerationError, StateStreaming, "find the answer in the site's history"},
		{"a browser killed during the send leaves the run at submitting, to be looked for in its conversation", conv, StateSubmitted, errs.Internal, StateSubmitting, "never sends it twice"},
		{"a browser killed during a new chat's send says the prompt may have left", "", StateSubmitted, errs.Internal, StateSubmitting, "may have left"},
		{"a browser killed before the send fails the run and says nothing was sent", conv, StateComposed, errs.ComposerNotFound, StateFailed, "nothing was sent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			repo, st := openRepo(t, t.TempDir())
			defer st.Close()
			r := NewRunner(repo)
			s, err := r.Create(ctx, Spec{Site: "chatgpt", TargetID: "tab-1", Prompt: "a question", ConversationURL: tc.conv, Deadline: time.Now().Add(time.Minute)})
			if err != nil {
				t.Fatal(err)
			}
			a := &lostAdapter{at: tc.at, failWith: tc.failWith}
			out, runErr := r.Run(ctx, s.ID, a)
			env := errs.From(runErr)
			if env.Code != errs.BrowserDisconnected {
				t.Fatalf("run error %v, want browser_disconnected", runErr)
			}
			if !strings.Contains(env.RetryHint, tc.wantHint) {
				t.Fatalf("hint %q, want it to say %q", env.RetryHint, tc.wantHint)
			}
			if env.Evidence["reported"] != string(tc.failWith) {
				t.Fatalf("evidence %v, want the cut call's code %s kept", env.Evidence, tc.failWith)
			}
			stored, err := repo.Get(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if out.State != tc.wantState || stored.State != tc.wantState || stored.Error == nil || stored.Error.Code != errs.BrowserDisconnected {
				t.Fatalf("run is %s (stored %s, error %v), want %s with browser_disconnected", out.State, stored.State, stored.Error, tc.wantState)
			}
			if tc.wantState == StateFailed {
				return
			}
			if !stored.State.Active() {
				t.Fatalf("a run lost after the send must stay active for reattach, got %s", stored.State)
			}
			// A new browser: reattach finds the turn and collects the
			// answer without a second send.
			again := &lostAdapter{}
			done, f, err := r.Reattach(ctx, s.ID, again, WithTurnFinder(again))
			if err != nil || done.State != StateDone || done.Answer != "an answer" || f.Action != "collect" {
				t.Fatalf("reattach: %v, state %s answer %q finding %+v", err, done.State, done.Answer, f)
			}
			if again.sent != 0 {
				t.Fatalf("reattach sent the prompt %d times", again.sent)
			}
		})
	}

	t.Run("a tab that still works keeps the step's own error", func(t *testing.T) {
		ctx := context.Background()
		repo, st := openRepo(t, t.TempDir())
		defer st.Close()
		r := NewRunner(repo)
		s, err := r.Create(ctx, Spec{Site: "chatgpt", TargetID: "tab-1", Prompt: "a question"})
		if err != nil {
			t.Fatal(err)
		}
		a := &lostAdapter{at: StateStreaming, failWith: errs.GenerationError}
		a2 := &steadyTab{a}
		out, runErr := r.Run(ctx, s.ID, a2)
		if errs.CodeOf(runErr) != errs.GenerationError || out.State != StateFailed {
			t.Fatalf("run %s error %v, want failed with generation_error", out.State, runErr)
		}
	})
}

// steadyTab is a lostAdapter whose tab never ends: the site's error stands.
type steadyTab struct{ *lostAdapter }

func (s *steadyTab) TabLost(ctx context.Context) error { return nil }
