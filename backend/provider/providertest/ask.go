package providertest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/store"
)

// Request is one prompt for Ask.
type Request struct {
	Prompt string
	// Model is a model alias of the site ("" or "default": whatever is
	// selected now).
	Model string
	// Effort is an effort tier of the site ("": whatever is selected).
	Effort string
	// Tool is a tool of the site's composer to switch on ("": none).
	Tool string
	// CodeMode asks for the code_artifacts feature, as `ferry code` does;
	// the run is refused before anything is typed when the site or model
	// lacks it.
	CodeMode bool
	// TargetID is the tab the run is for; "" means the adapter's own. The
	// runner refuses an adapter that controls another tab.
	TargetID string
	// OnPartial receives the answer as it grows.
	OnPartial func(provider.Partial)
	// Deliverable, when set, is the run's (job.WithDeliverable), as an
	// ask's images are brought home (runs.ImagesHome).
	Deliverable job.Deliverable
	// Cooldown, when set, turns the interstitial policies on, as a user's
	// run has them: a rate limit is cooled down this long and sent once
	// more. Zero runs with the policies off (job.WithoutRetry).
	Cooldown time.Duration
}

// doneJournal is the journal of a run that went straight to done.
var doneJournal = []job.State{job.StateResolved, job.StatePreflighted, job.StateComposed, job.StateSubmitting,
	job.StateSubmitted, job.StateStreaming, job.StateCompleted, job.StateExtracted, job.StateDone}

// Ask runs req with a the way a user's run goes: a job.Runner over a real
// store in t.TempDir() creates the session and drives it (preflight,
// readiness, model selection, compose, submit, wait, extract, model proof,
// each state journaled), as core's Ask does, with the interstitial
// policies' retry off (job.WithoutRetry) so that a refusal comes back as
// the site gave it. It returns the session's Result only when the run
// reached done, and otherwise the run's envelope.
//
// Ask also checks what the journal recorded, and fails t when it disagrees
// with the outcome: a run that answered went through every state to done,
// its send confirmed by the adapter; a run that failed holds the
// envelope's code, and ended failed unless it stopped where reattach can
// resume it (a send that could not be confirmed, the end of ctx).
func Ask(t testing.TB, ctx context.Context, a provider.Adapter, req Request) (*provider.Result, error) {
	t.Helper()
	st, err := store.Open(ctx, t.TempDir(), store.WithRole("test"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	repo, err := job.OpenRepo(ctx, st)
	if err != nil {
		t.Fatalf("open sessions: %v", err)
	}
	target := req.TargetID
	if target == "" {
		target = a.TargetID()
	}
	deadline, _ := ctx.Deadline()
	policy := job.WithoutRetry()
	if req.Cooldown > 0 {
		policy = job.WithRateLimitCooldown(req.Cooldown)
	}
	opts := []job.RunnerOption{policy}
	if req.Deliverable != nil {
		opts = append(opts, job.WithDeliverable(req.Deliverable))
	}
	r := job.NewRunner(repo, opts...)
	s, err := r.Create(ctx, job.Spec{Site: a.Site().ID, Model: req.Model, Effort: req.Effort, Tool: req.Tool, TargetID: target, Prompt: req.Prompt,
		Deadline: deadline, Origin: job.OriginCLI, CodeMode: req.CodeMode})
	if err != nil {
		t.Fatalf("create session: %v", err)
	}
	if req.OnPartial != nil {
		defer r.Subscribe(func(ev job.Event) {
			if ev.Session == s.ID && ev.Kind == job.EventPartial {
				req.OnPartial(*ev.Partial)
			}
		})()
	}
	out, runErr := r.Run(ctx, s.ID, a)
	checkJournal(t, repo, s.ID, runErr, req.Cooldown > 0)
	if runErr != nil {
		return nil, runErr
	}
	res := out.Result()
	return &res, nil
}

// Ask runs req on the tab's adapter, for the tab (see the package's Ask).
func (tab *Tab) Ask(t testing.TB, ctx context.Context, req Request) (*provider.Result, error) {
	t.Helper()
	if req.TargetID == "" {
		req.TargetID = tab.Page.ID()
	}
	return Ask(t, ctx, tab.Adapter, req)
}

// checkJournal fails t unless the record and the journal of session id
// agree with runErr, the run's outcome. A run with the policies on
// (retried) may have journaled its one retry before done.
func checkJournal(t testing.TB, repo *job.Repo, id string, runErr error, retried bool) {
	t.Helper()
	ctx := context.Background()
	s, err := repo.Get(ctx, id)
	if err != nil {
		t.Fatalf("read session %s: %v", id, err)
	}
	j, err := repo.Journal(ctx, id)
	if err != nil {
		t.Fatalf("read journal of %s: %v", id, err)
	}
	states := make([]job.State, len(j))
	for i, e := range j {
		states[i] = e.State
	}
	if len(states) == 0 || states[len(states)-1] != s.State {
		t.Fatalf("the journal %v does not end in the record's state %s", states, s.State)
	}
	if runErr == nil {
		if retried && !slices.Equal(states, doneJournal) {
			if len(states) <= len(doneJournal) || !slices.Equal(states[:4], doneJournal[:4]) || !slices.Equal(states[len(states)-5:], doneJournal[4:]) {
				t.Fatalf("an answered run with a retry journaled %v, want %v around its retry", states, doneJournal)
			}
		} else if !slices.Equal(states, doneJournal) {
			t.Fatalf("an answered run journaled %v, want %v", states, doneJournal)
		}
		if fp := s.Fingerprint; fp == nil || !fp.Confirmed || fp.ConfirmedBy != "submit" {
			t.Fatalf("an answered run's submission fingerprint %+v, want it confirmed by the submit", fp)
		}
		if s.Content == nil || s.Transport == nil || s.Content.SHA256 != provider.ContentOf(s.Answer, s.AnswerSource).SHA256 {
			t.Fatalf("an answered run recorded content %+v and transport %+v, want both, naming its answer", s.Content, s.Transport)
		}
		return
	}
	code := errs.CodeOf(runErr)
	if s.Error == nil || s.Error.Code != code {
		t.Fatalf("the run failed with %s but its record holds the error %+v", code, s.Error)
	}
	switch {
	case s.State == job.StateFailed:
	case code == errs.SendUnconfirmed && s.State == job.StateSubmitting:
	case (code == errs.Timeout || code == errs.Cancelled) && !s.State.Terminal():
	case code == errs.Cancelled && s.State == job.StateCancelled:
	default:
		t.Fatalf("the run failed with %s but its record says %s (journal %v)", code, s.State, states)
	}
}
