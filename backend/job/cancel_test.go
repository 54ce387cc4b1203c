package job

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestACancelledRunKeepsItsPartialAnswerAndItsRestIsCollected cancels a
// run while a long answer streams, in real Chromium against the simulator:
// the run is cancelled with the text that had come as its partial answer,
// the site's stop control pressed (the envelope says the site stopped),
// its hint names no command, and Reattach collects the answer as the site
// kept it (cut short by the stop) without sending the prompt again.
func TestACancelledRunKeepsItsPartialAnswerAndItsRestIsCollected(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatalf("chromium is required (apt-get install chromium): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	srv := sim.New()
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
	tab, err := b.OpenTab(ctx, "https://chatgpt.com/")
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := adapterFor(ctx, b, tab.ID())
	if err != nil {
		t.Fatal(err)
	}
	repo, st := openRepo(t, t.TempDir())
	defer st.Close()
	r := NewRunner(repo)

	prompt := "Tell the long story of the ferry\n" + sim.Directive(sim.ScenarioLong, "size", "6KiB", "chunk", "40", "interval", "40ms")
	s, err := r.Create(ctx, Spec{Site: "chatgpt", TargetID: tab.ID(), Prompt: prompt, Deadline: time.Now().Add(90 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	var once sync.Once
	var mu sync.Mutex
	seen := ""
	defer r.Subscribe(func(ev Event) {
		if ev.Kind == EventPartial && ev.Partial != nil && utf8.RuneCountInString(ev.Partial.Text) > 1000 {
			mu.Lock()
			seen = ev.Partial.Text
			mu.Unlock()
			once.Do(stop)
		}
	})()
	out, runErr := r.Run(runCtx, s.ID, a)

	t.Run("the cancelled run keeps what had streamed as its partial answer", func(t *testing.T) {
		if out == nil || out.State != StateCancelled {
			t.Fatalf("the run ended %v (%v), want cancelled", out, runErr)
		}
		if !errs.Has(runErr, errs.Cancelled) || out.Error == nil || out.Error.Code != errs.Cancelled {
			t.Fatalf("the run's error is %v (recorded %v), want cancelled", runErr, out.Error)
		}
		mu.Lock()
		defer mu.Unlock()
		if !out.AnswerPartial || !strings.HasPrefix(out.Answer, seen) || len(out.Answer) < 1000 {
			t.Fatalf("the partial answer is %d bytes (partial %v), want at least the %d seen", len(out.Answer), out.AnswerPartial, len(seen))
		}
		if out.Error.Evidence[SiteStoppedKey] != "true" {
			t.Errorf("the run's envelope says site_stopped=%q: %v", out.Error.Evidence[SiteStoppedKey], out.Error)
		}
		if honored, _ := srv.StopPresses("chatgpt"); honored == 0 {
			t.Errorf("the site's stop control was never pressed")
		}
		if strings.Contains(out.Error.RetryHint, "ferry ") {
			t.Errorf("the hint names a command: %q", out.Error.RetryHint)
		}
		if !out.Collectable() || out.StateBefore != StateStreaming {
			t.Errorf("the run is collectable %v from %s, want collectable from streaming", out.Collectable(), out.StateBefore)
		}
		stored, err := repo.Get(ctx, s.ID)
		if err != nil || stored.State != StateCancelled || stored.Answer != out.Answer {
			t.Fatalf("the stored run is %v with %d bytes (%v)", stored.State, len(stored.Answer), err)
		}
	})

	t.Run("reattaching collects the answer the site kept without sending again", func(t *testing.T) {
		got, f, err := r.Reattach(ctx, s.ID, a)
		if err != nil {
			t.Fatalf("reattach: %v (finding %+v)", err, f)
		}
		if got.State != StateDone || got.AnswerPartial || got.Error != nil {
			t.Fatalf("the collected run is %s (partial %v, error %v), want done", got.State, got.AnswerPartial, got.Error)
		}
		if len(got.Answer) < len(out.Answer) || len(got.Answer) >= 6<<10 {
			t.Fatalf("the collected answer is %d bytes, the partial one %d: want what the site wrote until it stopped", len(got.Answer), len(out.Answer))
		}
		if f == nil || f.From != StateCancelled || f.Action != "collect" {
			t.Errorf("the finding is %+v, want a collect from cancelled", f)
		}
		if n := countPrompt(srv, prompt); n != 1 {
			t.Errorf("the site saw the prompt %d times, want once", n)
		}
	})
}
