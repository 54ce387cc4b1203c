package core

import (
	"context"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/runs"
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
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := sim.New(sim.WithPace(4, 120*time.Millisecond))
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s, c := openTestService(t, ctx)
	owner := service.Owner(service.FaceCLI)
	launch := func(t *testing.T) *browser.Browser { return launchFor(t, ctx, srv) }
	repo, err := c.History(ctx)
	if err != nil {
		t.Fatal(err)
	}

	var lostID, prompt string
	t.Run("a browser killed while the answer streams ends the run browser_disconnected, still collectable", func(t *testing.T) {
		b := launch(t)
		prompt = "Killed browser question about harbours"
		out, killedAt, journaledAtKill, err := askKilledMidStream(t, ctx, s, b, prompt)
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
			t.Fatal("no run from the kill")
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
			t.Fatal("no run from the kill")
		}
		end := reattachLaunching(t, ctx, s, srv, lostID)
		d := end.Detail
		if d == nil || d.Run == nil || d.RunError != nil {
			t.Fatalf("reattach job ended %+v", end)
		}
		if d.Run.State != job.StateDone || d.Run.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("reattach: state %s answer %q, want done with %q", d.Run.State, d.Run.Answer, providertest.NormalAnswer(prompt))
		}
		if d.Finding == nil || d.Finding.Action != "collect" {
			t.Fatalf("finding %+v, want collect", d.Finding)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("the simulator received %d prompts, want exactly 1", n)
		}
	})

	t.Run("sessions doctor --recover reopens the conversation of a run that lost its browser, and reattach collects it", func(t *testing.T) {
		prompt := "Killed browser question about lighthouses"
		out, _, _, err := askKilledMidStream(t, ctx, s, launch(t), prompt)
		if !errs.Has(err, errs.BrowserDisconnected) {
			t.Fatalf("ask ended with %v, want browser_disconnected", err)
		}
		b := launch(t)
		reports, err := s.DoctorSessions(ctx, owner, service.DoctorRequest{Browser: true, BrowserURL: b.Endpoint(), Recover: true})
		if err != nil {
			t.Fatal(err)
		}
		recovered := false
		for _, rp := range reports {
			recovered = recovered || rp.ID == out.ID && rp.Verdict == "recovered"
		}
		if !recovered {
			t.Fatalf("the doctor did not recover run %s: %+v", out.ID, reports)
		}
		res, err := s.ReattachSession(ctx, owner, service.ReattachRequest{Session: out.ID, Browser: true, BrowserURL: b.Endpoint(), TimeoutMs: 60000})
		if err != nil {
			t.Fatal(err)
		}
		end, err := s.WatchJob(ctx, owner, service.WatchRequest{ID: res.Job.ID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := end.Detail; d == nil || d.Run == nil || d.RunError != nil || d.Run.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("reattach after the doctor ended %+v", end)
		}
		n := 0
		for _, sub := range srv.Submissions(sim.ChatGPT) {
			if strings.TrimSpace(sub.Prompt) == prompt {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("the simulator received the prompt %d times, want exactly 1", n)
		}
	})

	t.Run("a browser killed before the send fails the run and sends nothing", func(t *testing.T) {
		srv.Reset()
		b := launch(t)
		out, err := runs.New(s.c.runsDeps()).Ask(ctx, runs.AskRequest{Site: "chatgpt", Prompt: "Never sent", Browser: b, Timeout: 60 * time.Second,
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

// launchFor launches a headless Chromium mapped to srv, closed at the end
// of t.
func launchFor(t *testing.T, ctx context.Context, srv *sim.Server) *browser.Browser {
	t.Helper()
	b, err := browser.Launch(ctx, t.TempDir(), launch.WithBinary(providertest.ChromiumBin), launch.Headless(), launch.WithArgs(srv.ChromiumFlags()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	return b
}

// askKilledMidStream asks prompt in b and SIGKILLs b as soon as the first
// piece of the answer reached the run, while the rest streams. It returns
// the run, the moment of the kill, the conversation address the journal
// held then and the ask's error.
func askKilledMidStream(t *testing.T, ctx context.Context, s *Service, b *browser.Browser, prompt string) (*job.Session, time.Time, string, error) {
	t.Helper()
	repo, err := s.c.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var (
		journaledAtKill string
		killedAt        time.Time
	)
	streaming := make(chan struct{})
	var once sync.Once
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		select {
		case <-streaming:
		case <-ctx.Done():
			return
		}
		if act, err := repo.Active(ctx); err == nil && len(act) == 1 {
			journaledAtKill = act[0].ConversationURL
		}
		killedAt = time.Now()
		_ = syscall.Kill(b.PID(), syscall.SIGKILL)
	}()
	out, err := runs.New(s.c.runsDeps()).Ask(ctx, runs.AskRequest{Site: "chatgpt", Prompt: prompt, Browser: b, Timeout: 60 * time.Second,
		OnEvent: func(ev job.Event) {
			if ev.Kind == job.EventPartial {
				once.Do(func() { close(streaming) })
			}
		}})
	<-killed
	return out, killedAt, journaledAtKill, err
}

// reattachLaunching reattaches run id through s with no browser running:
// Ferry's is launched (headless, mapped to srv). It returns the ended job.
func reattachLaunching(t *testing.T, ctx context.Context, s *Service, srv *sim.Server, id string) service.Job {
	t.Helper()
	owner := service.Owner(service.FaceCLI)
	res, err := s.ReattachSession(ctx, owner, service.ReattachRequest{Session: id, TimeoutMs: 60000,
		Launch: &service.BrowserSpec{Mode: service.BrowserLaunch, Chromium: providertest.ChromiumBin, Headless: true, Args: srv.ChromiumFlags()}})
	if err != nil {
		t.Fatal(err)
	}
	end, err := s.WatchJob(ctx, owner, service.WatchRequest{ID: res.Job.ID}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return end
}

// TestTheReattachedAnswerIsExtractedAsTheSentOne: an answer holding a code
// block and citation markers reads the same whether its run collected it
// (the stream, then the conversation) or a reattach did after the browser
// was killed (the page, then the conversation): no "Copy code", no citation
// markers, the fence and its code kept.
func TestTheReattachedAnswerIsExtractedAsTheSentOne(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := sim.New(sim.WithPace(4, 60*time.Millisecond))
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s, _ := openTestService(t, ctx)
	clean := func(t *testing.T, how, answer string, blocks int, prompt string) {
		t.Helper()
		want := "About “" + sim.PromptTopic(prompt) + "”, the documented way:\n\n```python\n"
		if !strings.HasPrefix(answer, want) || !strings.HasSuffix(answer, "```\n\nIt prints the greeting.") || blocks != 1 {
			t.Fatalf("%s: answer %q with %d code blocks, want the cited_code answer with its one block", how, answer, blocks)
		}
		if strings.Contains(answer, "Copy code") || strings.ContainsFunc(answer, func(r rune) bool { return r >= '\ue200' && r <= '\ue206' }) {
			t.Fatalf("%s: answer %q holds page chrome or citation markers", how, answer)
		}
	}
	var sent string
	t.Run("the run that collects its answer returns it clean", func(t *testing.T) {
		prompt := "Sent cited code " + sim.Directive(sim.ScenarioCitedCode)
		out, err := runs.New(s.c.runsDeps()).Ask(ctx, runs.AskRequest{Site: "chatgpt", Prompt: prompt, Browser: launchFor(t, ctx, srv), Timeout: 60 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		clean(t, "sent", out.Answer, len(out.CodeBlocks), prompt)
		sent = strings.Replace(out.Answer, "Sent", "Killed", 1)
	})
	t.Run("the reattached answer is the same, clean", func(t *testing.T) {
		prompt := "Killed cited code " + sim.Directive(sim.ScenarioCitedCode)
		out, _, _, err := askKilledMidStream(t, ctx, s, launchFor(t, ctx, srv), prompt)
		if !errs.Has(err, errs.BrowserDisconnected) {
			t.Fatalf("ask ended with %v, want browser_disconnected", err)
		}
		end := reattachLaunching(t, ctx, s, srv, out.ID)
		d := end.Detail
		if d == nil || d.Run == nil || d.RunError != nil || d.Run.State != job.StateDone {
			t.Fatalf("reattach job ended %+v", end)
		}
		clean(t, "reattached", d.Run.Answer, len(d.Run.CodeBlocks), prompt)
		if sent != "" && d.Run.Answer != sent {
			t.Fatalf("reattached %q, sent %q: the two paths differ", d.Run.Answer, sent)
		}
	})
}
