package core

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestABrowserKilledMidAnswerIsCollectedByReattach kills Chromium (kill -9)
// while the simulator streams the answer: the run ends browser_disconnected
// at once and stays collectable with its conversation journaled, the
// doctor lists it, and a reattach with no browser running launches
// Ferry's, opens the conversation and collects the answer the site
// finished, without a second send. A browser killed before the send fails
// the run saying nothing was sent.
func TestABrowserKilledMidAnswerIsCollectedByReattach(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := sim.New(sim.WithPace(4, 120*time.Millisecond))
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s, c := openTestService(t, ctx)
	owner := service.Owner(service.FaceCLI)
	launch := func(t *testing.T) *browser.Browser {
		t.Helper()
		b, err := browser.Launch(ctx, t.TempDir(), browser.WithBinary(providertest.ChromiumBin), browser.Headless(), browser.WithArgs(srv.ChromiumFlags()...))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close(context.Background()) })
		return b
	}
	repo, err := c.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}

	var lostID, prompt string
	t.Run("a browser killed while the answer streams ends the run browser_disconnected, still collectable", func(t *testing.T) {
		b := launch(t)
		prompt = "Killed browser question about harbours"
		var (
			journaledAtKill string
			killedAt        time.Time
		)
		killed := make(chan struct{})
		go func() {
			defer close(killed)
			for srv.SubmissionCount(sim.ChatGPT) == 0 && ctx.Err() == nil {
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(600 * time.Millisecond) // into the stream
			if act, err := repo.Active(ctx); err == nil && len(act) == 1 {
				journaledAtKill = act[0].ConversationURL
			}
			killedAt = time.Now()
			_ = syscall.Kill(b.PID(), syscall.SIGKILL)
		}()
		out, err := c.Ask(ctx, AskRequest{Site: "chatgpt", Prompt: prompt, Browser: b, Timeout: 60 * time.Second})
		<-killed
		env := errs.From(err)
		if env.Code != errs.BrowserDisconnected {
			t.Fatalf("ask ended with %v, want browser_disconnected", err)
		}
		if took := time.Since(killedAt); took > 5*time.Second {
			t.Fatalf("the run ended %s after the kill", took)
		}
		if !strings.Contains(env.RetryHint, "ferry reattach --session "+out.ID) || !strings.Contains(env.RetryHint, "without sending the prompt again") {
			t.Fatalf("hint %q does not say that reattach collects the answer without a second send", env.RetryHint)
		}
		if errs.ExitCode(err) != errs.ClassOf(errs.New(errs.BrowserDisconnected, "")).ExitCode() {
			t.Fatalf("exit code %d, want browser_disconnected's", errs.ExitCode(err))
		}
		if !strings.HasPrefix(journaledAtKill, "https://chatgpt.com/c/") {
			t.Fatalf("the conversation was not journaled while the answer streamed (%q at the kill)", journaledAtKill)
		}
		stored, err := repo.Get(ctx, out.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !stored.State.Active() || !stored.State.Sent() || stored.Answer != "" || stored.Error == nil || stored.Error.Code != errs.BrowserDisconnected || !stored.LostItsTab() {
			t.Fatalf("stored run: state %s error %v answer %q, want a sent, active run lost with its browser", stored.State, stored.Error, stored.Answer)
		}
		lostID = out.ID
	})

	t.Run("sessions doctor lists the run", func(t *testing.T) {
		if lostID == "" {
			t.Skip("no run from the kill")
		}
		reports, err := s.DoctorSessions(ctx, owner, service.DoctorRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, rp := range reports {
			if rp.ID == lostID {
				return
			}
		}
		t.Fatalf("the doctor does not list run %s: %+v", lostID, reports)
	})

	t.Run("reattach launches Ferry's browser, opens the conversation and collects the answer once", func(t *testing.T) {
		if lostID == "" {
			t.Skip("no run from the kill")
		}
		res, err := s.ReattachSession(ctx, owner, service.ReattachRequest{Session: lostID, TimeoutMs: 60000,
			Launch: &service.BrowserSpec{Mode: service.BrowserLaunch, Chromium: providertest.ChromiumBin, Headless: true, Args: srv.ChromiumFlags()}})
		if err != nil {
			t.Fatal(err)
		}
		end, err := s.WatchJob(ctx, owner, service.WatchRequest{ID: res.Job.ID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := end.Detail
		if d == nil || d.Run == nil || d.RunError != nil {
			t.Fatalf("reattach job ended %+v", end)
		}
		if d.Run.State != string(job.StateDone) || d.Run.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("reattach: state %s answer %q, want done with %q", d.Run.State, d.Run.Answer, providertest.NormalAnswer(prompt))
		}
		if d.Finding == nil || d.Finding.Action != "collect" {
			t.Fatalf("finding %+v, want collect", d.Finding)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("the simulator received %d prompts, want exactly 1", n)
		}
	})

	t.Run("a browser killed before the send fails the run and sends nothing", func(t *testing.T) {
		srv.Reset()
		b := launch(t)
		out, err := c.Ask(ctx, AskRequest{Site: "chatgpt", Prompt: "Never sent", Browser: b, Timeout: 60 * time.Second,
			OnEvent: func(ev job.Event) {
				if ev.Kind == job.EventState && ev.State == job.StatePreflighted {
					_ = syscall.Kill(b.PID(), syscall.SIGKILL)
					<-b.Done()
				}
			}})
		env := errs.From(err)
		if env.Code != errs.BrowserDisconnected || !strings.Contains(env.RetryHint, "nothing was sent") {
			t.Fatalf("ask ended with %v (hint %q), want browser_disconnected saying nothing was sent", err, env.RetryHint)
		}
		if out == nil || out.State != job.StateFailed {
			t.Fatalf("run %+v, want failed", out)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("the simulator received %d prompts, want 0", n)
		}
	})
}
