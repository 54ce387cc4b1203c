package job

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	_ "github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
)

// killAfterClick is the child's kill point inside Submit: after the click
// (and its confirmation) but before `submitted` is journaled, so the record
// says submitting while the prompt has left.
const killAfterClick = "submitting_after_click"

// The kill points of the rate-limit policy: as the retry is journaled (the
// cooldown begins), and after the retry's click. The child's runner then
// waits childCooldownEnv.
const (
	killInCooldown       = "rate_limit_cooldown"
	killAfterRetryClick  = "rate_limit_retry_after_click"
	childCooldownEnv     = "FERRY_JOB_TEST_COOLDOWN"
	reattachTestCooldown = 3 * time.Second
)

// clickKiller wraps an adapter and kills the process as Submit returns.
type clickKiller struct{ provider.Adapter }

func (c clickKiller) Submit(ctx context.Context, prompt string) (*provider.Turn, error) {
	t, err := c.Adapter.Submit(ctx, prompt)
	if err == nil {
		killSelf()
		select {}
	}
	return t, err
}

// retryClickKiller kills the process as the second Submit returns: after
// the click of the rate-limit retry (the first send was refused). It keeps
// the adapter's way of answering the modal, which the policy needs.
type retryClickKiller struct {
	provider.Adapter
	submits int
}

func (c *retryClickKiller) Interstitial(ctx context.Context) (interstitial.Result, error) {
	return c.Adapter.(provider.InterstitialActor).Interstitial(ctx)
}

func (c *retryClickKiller) Acknowledge(ctx context.Context, label string) error {
	return c.Adapter.(provider.InterstitialActor).Acknowledge(ctx, label)
}

func (c *retryClickKiller) Submit(ctx context.Context, prompt string) (*provider.Turn, error) {
	t, err := c.Adapter.Submit(ctx, prompt)
	if c.submits++; c.submits == 2 && err == nil {
		killSelf()
		select {}
	}
	return t, err
}

func adapterFor(ctx context.Context, b *browser.Browser, target string) (provider.Adapter, *browser.Page, error) {
	p, err := b.Page(ctx, target)
	if err != nil {
		return nil, nil, err
	}
	s, err := site.Builtin().Get("chatgpt")
	if err != nil {
		return nil, nil, err
	}
	a, err := provider.New(provider.Env{Page: p, Site: s, Sites: site.Builtin(), Poll: 100 * time.Millisecond})
	return a, p, err
}

// runChild runs the session of the environment with a fresh process's
// view (own store handle, own browser connection) and SIGKILLs itself once
// the chosen state is persisted.
func runChild() int {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The parent closed the store before starting this child, but its
	// flock lives on in any sibling case's child that was forked in that
	// moment and has not exec'd yet (the cases run side by side): such a
	// brief hold is waited out, a real one is not.
	var st *store.Store
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		st, err = openStoreErr(os.Getenv(childDirEnv))
		if !errs.Has(err, errs.StoreBusy) || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open store:", err)
		return 3
	}
	repo, err := OpenRepo(ctx, st)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open repo:", err)
		return 3
	}
	b, err := browser.Attach(ctx, os.Getenv(childWSEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: attach:", err)
		return 3
	}
	id, kill := os.Getenv(childIDEnv), State(os.Getenv(childKillEnv))
	s, err := repo.Get(ctx, id)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 3
	}
	a, _, err := adapterFor(ctx, b, s.TargetID)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: adapter:", err)
		return 3
	}
	if kill == killAfterClick {
		a = clickKiller{a}
	}
	if kill == killAfterRetryClick {
		a = &retryClickKiller{Adapter: a}
	}
	if kill == StateResolved {
		// The record is at resolved (Create persisted it): die before any step.
		killSelf()
		select {}
	}
	var opts []RunnerOption
	if d, err := time.ParseDuration(os.Getenv(childCooldownEnv)); err == nil {
		opts = append(opts, WithRateLimitCooldown(d))
	}
	r := NewRunner(repo, opts...)
	t0 := time.Now()
	submitting := 0
	r.Subscribe(func(ev Event) {
		if ev.Kind == EventState {
			fmt.Fprintf(os.Stderr, "child: %s at %s\n", ev.State, time.Since(t0).Round(time.Millisecond))
		}
		if ev.Kind == EventState && ev.State == StateSubmitting {
			submitting++
		}
		// The second submitting is the retry, journaled as the cooldown
		// begins.
		if kill == killInCooldown && submitting == 2 {
			killSelf()
			select {}
		}
		if ev.Kind == EventState && ev.State == kill {
			killSelf()
			select {}
		}
	})
	if _, err := r.Run(ctx, id, a); err != nil {
		fmt.Fprintln(os.Stderr, "child: run:", err)
		return 4
	}
	return 0
}

func TestARunKilledInEveryStateIsReattachedWithExactlyOneSubmission(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatalf("chromium is required (apt-get install chromium): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
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

	kills := []State{StateResolved, StatePreflighted, StateComposed, StateSubmitting, killAfterClick,
		StateSubmitted, StateStreaming, StateCompleted, StateExtracted, StateDone}
	// The group returns only when its parallel cases have finished, before
	// the browser and the simulator are closed.
	t.Run("each state", func(t *testing.T) {
		for i, kill := range kills {
			t.Run(fmt.Sprintf("killed at %s then reattached sends the prompt once", kill), func(t *testing.T) {
				// Each case has its own data directory, tab and prompt, so the
				// cases run side by side (the pages mostly wait).
				t.Parallel()
				dir := t.TempDir()
				tab, err := b.OpenTab(ctx, "https://chatgpt.com/")
				if err != nil {
					t.Fatal(err)
				}
				defer tab.Close(context.Background())
				prompt := fmt.Sprintf("journal check %d %s", i, kill)

				st := openStore(t, dir)
				repo, err := OpenRepo(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewRunner(repo).Create(ctx, Spec{Site: "chatgpt", Prompt: prompt, TargetID: tab.ID()})
				if err != nil {
					t.Fatal(err)
				}
				st.Close()

				cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), childEnv+"=run", childDirEnv+"="+dir, childWSEnv+"="+b.Endpoint(),
					childIDEnv+"="+s.ID, childKillEnv+"="+string(kill))
				out, err := cmd.CombinedOutput()
				if !killed(cmd.ProcessState) {
					t.Fatalf("the child was not killed at %s: %v\n%s", kill, err, out)
				}

				st = openStore(t, dir)
				defer st.Close()
				repo, err = OpenRepo(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := repo.Get(ctx, s.ID)
				wantState := kill
				if kill == killAfterClick {
					wantState = StateSubmitting
				}
				if got.State != wantState {
					t.Fatalf("after the kill the record says %s, want %s", got.State, wantState)
				}
				a, _, err := adapterFor(ctx, b, tab.ID())
				if err != nil {
					t.Fatal(err)
				}
				// The product path: the adapter's own FindTurn (provider.Web's).
				if _, ok := a.(TurnFinder); !ok {
					t.Fatalf("the %T adapter is not a TurnFinder", a)
				}
				r := NewRunner(repo)
				final, f, err := r.Reattach(ctx, s.ID, a)
				if err != nil {
					t.Fatalf("reattach: %v (finding %+v)", err, f)
				}
				t.Logf("finding at %s: %+v\nchild:\n%s", kill, *f, out)
				if final.State != StateDone {
					t.Fatalf("final state %s", final.State)
				}
				if !strings.Contains(final.Answer, "journal check") || !strings.Contains(final.Answer, "That is the whole answer.") {
					t.Fatalf("answer %q is not the simulator's answer to the prompt", final.Answer)
				}
				if n := countPrompt(srv, prompt); n != 1 {
					t.Fatalf("the simulator saw %d submissions of the prompt, want exactly 1", n)
				}
				if kill != StateResolved && kill != StatePreflighted && kill != StateComposed && kill != StateSubmitting &&
					!strings.HasPrefix(final.ConversationURL, "https://chatgpt.com/c/") {
					t.Fatalf("the conversation URL %q was not recorded", final.ConversationURL)
				}
				switch kill {
				case killAfterClick:
					if !f.Looked || !f.Found || f.Action != "collect" {
						t.Fatalf("a run killed after the click must be found and collected: %+v", f)
					}
					if !final.Fingerprint.Confirmed || final.Fingerprint.ConfirmedBy != "reattach:found_turn" {
						t.Fatalf("fingerprint %+v", final.Fingerprint)
					}
				case StateSubmitting:
					if !f.Looked || f.Found || f.Action != "send" {
						t.Fatalf("a run killed before the click must be looked for, not found, then sent: %+v", f)
					}
				}
			})
		}
	})
}

// countPrompt counts the simulator's submissions of exactly prompt (the
// cases run in parallel, so the site's total moves under each case).
func countPrompt(srv *sim.Server, prompt string) int {
	n := 0
	for _, sub := range srv.Submissions(sim.ChatGPT) {
		if strings.TrimSpace(sub.Prompt) == prompt {
			n++
		}
	}
	return n
}

// A run killed during the rate-limit policy (while waiting out the
// cooldown, or after the retry's click) is reattached by a process with its
// own settings: it waits only the rest of the journaled cooldown and sends
// the one retry only if its send never began, so the site sees at most the
// two submissions the policy allows, and the run ends with the answer or
// with rate_limited.
func TestARunKilledDuringTheRateLimitPolicyIsReattachedWithinItsOneRetry(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatalf("chromium is required (apt-get install chromium): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	srv := sim.New(sim.WithPace(40, 5*time.Millisecond), sim.WithRateLimitLock(time.Second))
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
	rateLimited := sim.Scenario{Name: sim.ScenarioRateLimit, Params: map[string]string{"lock": "1s"}}

	cases := []struct {
		name    string
		kill    string
		lifts   bool // the site's lock ends before the cooldown does
		action  string
		wantErr bool
	}{
		{"killed in the cooldown, the lock over: reattach waits the rest and the one retry answers", killInCooldown, true, "send", false},
		{"killed in the cooldown, the lock persisting: reattach ends rate_limited after the one retry", killInCooldown, false, "send", true},
		{"killed after the retry's click: reattach finds the retry and collects its answer", killAfterRetryClick, true, "collect", false},
	}
	// The cases share the simulator's per-site lock: they run in turn.
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.Reset()
			srv.SetScenario(sim.ChatGPT, rateLimited)
			dir := t.TempDir()
			tab, err := b.OpenTab(ctx, "https://chatgpt.com/")
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Close(context.Background())
			prompt := fmt.Sprintf("cooldown check %d %s", i, tc.kill)

			st := openStore(t, dir)
			repo, err := OpenRepo(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewRunner(repo).Create(ctx, Spec{Site: "chatgpt", Prompt: prompt, TargetID: tab.ID(), Deadline: time.Now().Add(90 * time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			st.Close()

			lifted := make(chan struct{})
			go func() {
				defer close(lifted)
				for ctx.Err() == nil && tc.lifts {
					if subs := promptSubs(srv, prompt); len(subs) > 0 && subs[0].Refused {
						srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"=run", childDirEnv+"="+dir, childWSEnv+"="+b.Endpoint(),
				childIDEnv+"="+s.ID, childKillEnv+"="+tc.kill, childCooldownEnv+"="+reattachTestCooldown.String())
			out, err := cmd.CombinedOutput()
			<-lifted
			if !killed(cmd.ProcessState) {
				t.Fatalf("the child was not killed at %s: %v\n%s", tc.kill, err, out)
			}

			st = openStore(t, dir)
			defer st.Close()
			repo, err = OpenRepo(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			got, err := repo.Get(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			fp := got.Fingerprint
			if got.State != StateSubmitting || fp == nil || fp.RetryOf == "" || fp.Reason != PolicyRateLimit || fp.Confirmed || fp.NotBefore.IsZero() {
				t.Fatalf("after the kill the record is %s with fingerprint %+v; want submitting with the unconfirmed rate-limit retry", got.State, fp)
			}
			// The browser outlives the child: a request it started may reach
			// the simulator just after the kill.
			sentBefore := len(promptSubs(srv, prompt))
			for end := time.Now().Add(3 * time.Second); tc.kill == killAfterRetryClick && sentBefore < 2 && time.Now().Before(end); {
				time.Sleep(20 * time.Millisecond)
				sentBefore = len(promptSubs(srv, prompt))
			}
			if tc.kill == killInCooldown && (sentBefore != 1 || !fp.At.Before(fp.NotBefore)) {
				t.Fatalf("killed in the cooldown: %d submissions and fingerprint %+v; want 1 and a retry whose send never began", sentBefore, fp)
			}
			if tc.kill == killAfterRetryClick && (sentBefore != 2 || fp.At.Before(fp.NotBefore)) {
				t.Fatalf("killed after the retry's click: %d submissions and fingerprint %+v; want 2 and the send's moment stamped", sentBefore, fp)
			}

			a, _, err := adapterFor(ctx, b, tab.ID())
			if err != nil {
				t.Fatal(err)
			}
			// The reattaching process has the default 300 s cooldown: only
			// the journaled end of the cooldown counts.
			final, f, err := NewRunner(repo).Reattach(ctx, s.ID, a)
			t.Logf("finding: %+v\nchild:\n%s", f, out)
			subs := promptSubs(srv, prompt)
			if len(subs) != 2 || !subs[0].Refused {
				t.Fatalf("the simulator saw %+v, want exactly 2 submissions, the first refused", subs)
			}
			if subs[1].At.Before(fp.NotBefore) {
				t.Fatalf("the retry went at %s, before the cooldown's end %s", subs[1].At, fp.NotBefore)
			}
			if f == nil || f.Action != tc.action {
				t.Fatalf("finding %+v, want action %s", f, tc.action)
			}
			if tc.wantErr {
				if !errs.Has(err, errs.RateLimited) || errs.From(err).Evidence["retried"] != "once" || !subs[1].Refused {
					t.Fatalf("reattach: %v, want rate_limited after the one retry", err)
				}
				if msg := errs.From(err).Message; !strings.Contains(msg, reattachTestCooldown.String()) {
					t.Fatalf("the message %q does not name the %s cooldown that was waited", msg, reattachTestCooldown)
				}
				if final.State != StateFailed {
					t.Fatalf("final state %s, want failed", final.State)
				}
				return
			}
			if err != nil {
				t.Fatalf("reattach: %v", err)
			}
			if final.State != StateDone || !strings.Contains(final.Answer, "cooldown check") || subs[1].Refused {
				t.Fatalf("final state %s, answer %q; want done with the answer to the retry", final.State, final.Answer)
			}
		})
	}
}
