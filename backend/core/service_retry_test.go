package core

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestRetryRunNeverSendsAPromptTheSiteMayHoldUnasked (issue 26, point 6:
// History's Retry): a run stopped before its send is sent again at once,
// as a new run of the same request with its files; a run whose prompt
// reached the site sends nothing until the user confirms; a retry whose
// attached file is gone names it and sends nothing.
func TestRetryRunNeverSendsAPromptTheSiteMayHoldUnasked(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: h.Browser})
	defer o.stop(t)
	svc := o.svc
	desk := service.Owner(service.FaceDesktop)

	watch := func(t *testing.T, j service.Job) service.Job {
		t.Helper()
		done, err := svc.WatchJob(ctx, desk, service.WatchRequest{ID: j.ID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return done
	}
	sessionOf := func(t *testing.T, j service.Job) string {
		t.Helper()
		if j.Detail == nil || j.Detail.Run == nil {
			t.Fatalf("job %s ended %s without a run: %+v", j.ID, j.State, j.Error)
		}
		return j.Detail.Run.ID
	}
	notes := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notes, []byte("tide tables\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
	j, err := svc.SubmitJob(ctx, desk, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "When does the night ferry leave?", Files: []string{notes}})
	if err != nil {
		t.Fatal(err)
	}
	refused := watch(t, j)
	if refused.Error == nil || refused.Error.Code != errs.LoginRequired {
		t.Fatalf("the logged-out run ended %s with %+v, want login_required", refused.State, refused.Error)
	}
	refusedRun := sessionOf(t, refused)
	h.Server.Reset()
	// The user logs in in the run's tab.
	if p, err := h.Browser.Page(ctx, refused.Detail.Run.TargetID); err != nil {
		t.Fatal(err)
	} else if err := p.Navigate(ctx, "https://chatgpt.com/"); err != nil {
		t.Fatal(err)
	}

	t.Run("a run stopped before its send is sent again as a new run of the same request", func(t *testing.T) {
		before := h.Server.SubmissionCount(sim.ChatGPT)
		res, err := svc.RetryRun(ctx, desk, service.RetryRunRequest{Session: refusedRun})
		if err != nil {
			t.Fatal(err)
		}
		if res.Held != nil || res.Job == nil {
			t.Fatalf("the retry was held (%+v), want a new job", res.Held)
		}
		done := watch(t, *res.Job)
		if done.State != string(job.StateDone) || done.ID == refused.ID || sessionOf(t, done) == refusedRun {
			t.Fatalf("the retry ended %s (%+v), want a new run done", done.State, done.Error)
		}
		if got := done.Detail.Run.Prompt; !strings.Contains(got, "When does the night ferry leave?") {
			t.Errorf("the retry sent %q", got)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before+1 {
			t.Errorf("%d sends to ChatGPT, want %d", n, before+1)
		}
		subs := h.Server.Submissions(sim.ChatGPT)
		if last := subs[len(subs)-1]; !slices.Contains(last.Attachments, "notes.txt") {
			t.Errorf("the retry carried %v, want notes.txt", last.Attachments)
		}
	})

	t.Run("a retry whose attached file is gone names it and sends nothing", func(t *testing.T) {
		if err := os.Remove(notes); err != nil {
			t.Fatal(err)
		}
		before := h.Server.SubmissionCount(sim.ChatGPT)
		_, err := svc.RetryRun(ctx, desk, service.RetryRunRequest{Session: refusedRun})
		if !errs.Has(err, errs.BadInput) || !strings.Contains(err.Error(), "notes.txt") {
			t.Fatalf("retry without its file: %v, want bad_input naming notes.txt", err)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before {
			t.Errorf("%d sends to ChatGPT after the refused retry, want %d", n, before)
		}
	})

	t.Run("a run whose prompt reached the site is sent again only once the user confirms", func(t *testing.T) {
		j, err := svc.SubmitJob(ctx, desk, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", NewChat: true, Prompt: "Summarise the ferry timetable\n" + sim.Directive(sim.ScenarioError)})
		if err != nil {
			t.Fatal(err)
		}
		failed := watch(t, j)
		if failed.State != string(job.StateFailed) {
			t.Fatalf("the run ended %s (%+v), want failed after its send", failed.State, failed.Error)
		}
		before := h.Server.SubmissionCount(sim.ChatGPT)
		res, err := svc.RetryRun(ctx, desk, service.RetryRunRequest{Session: sessionOf(t, failed)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Job != nil || res.Held == nil || res.Held.Sent != "yes" || res.Held.Collectable || !strings.Contains(res.Held.Message, "ChatGPT already has this prompt") {
			t.Fatalf("the unconfirmed retry: job %v, held %+v; want held, sent yes, naming ChatGPT", res.Job, res.Held)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("%d sends to ChatGPT after the held retry, want %d", n, before)
		}
		res, err = svc.RetryRun(ctx, desk, service.RetryRunRequest{Session: sessionOf(t, failed), SendAgain: true})
		if err != nil || res.Job == nil {
			t.Fatalf("the confirmed retry: %+v %v", res, err)
		}
		again := watch(t, *res.Job)
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before+1 {
			t.Logf("the confirmed retry ended %s: %+v", again.State, again.Error)
			t.Errorf("%d sends to ChatGPT after the confirmed retry, want %d", n, before+1)
		}
	})
}
