package job

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/provider"
	_ "github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// killAfterClick is the child's kill point inside Submit: after the click
// (and its confirmation) but before `submitted` is journaled, so the record
// says submitting while the prompt has left.
const killAfterClick = "submitting_after_click"

// clickKiller wraps an adapter and kills the process as Submit returns.
type clickKiller struct{ provider.Adapter }

func (c clickKiller) Submit(ctx context.Context, prompt string) (*provider.Turn, error) {
	t, err := c.Adapter.Submit(ctx, prompt)
	if err == nil {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
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
	st, err := openStoreErr(os.Getenv(childDirEnv))
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
	if kill == StateResolved {
		// The record is at resolved (Create persisted it): die before any step.
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	r := NewRunner(repo)
	t0 := time.Now()
	r.Subscribe(func(ev Event) {
		if ev.Kind == EventState {
			fmt.Fprintf(os.Stderr, "child: %s at %s\n", ev.State, time.Since(t0).Round(time.Millisecond))
		}
		if ev.Kind == EventState && ev.State == kill {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
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
	b, err := browser.Launch(ctx, t.TempDir(), browser.Headless(), browser.WithBinary("/usr/bin/chromium"),
		browser.WithArgs(append(srv.ChromiumFlags(), "--disable-quic", "--no-first-run", "--disable-background-networking",
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
				ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
				if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
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
