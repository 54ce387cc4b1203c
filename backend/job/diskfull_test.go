//go:build linux

// This test fills a real small disk (spacetest's tmpfs, Linux only); the
// Windows side of a full disk is checked in the store and artifact packages.

package job

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/store"
	"github.com/ferrydesk/ferry/backend/store/spacetest"
)

// TestAFullDiskStopsARunBeforeTheSendAndNeverLosesAnAnswerAfterIt drives
// runs against the simulator in real Chromium with the store on a small
// tmpfs that the test fills at a chosen step.
func TestAFullDiskStopsARunBeforeTheSendAndNeverLosesAnAnswerAfterIt(t *testing.T) {
	spacetest.Require(t)
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatalf("chromium is required (apt-get install chromium): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
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

	// setup gives a Runner over a store on its own small disk, a fresh tab
	// and its adapter; fillAt fills the disk once the run has journaled
	// that state (events come after the write).
	type rig struct {
		disk, dir string
		st        *store.Store
		repo      *Repo
		r         *Runner
		spec      Spec
	}
	setup := func(t *testing.T, prompt string) *rig {
		disk := spacetest.Mount(t, store.SpaceMargin+24<<20)
		dir := filepath.Join(disk, "db")
		repo, st := openRepo(t, dir)
		t.Cleanup(func() { _ = st.Close() })
		tab, err := b.OpenTab(ctx, "https://chatgpt.com/")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tab.Close(context.Background()) })
		return &rig{disk: disk, dir: dir, st: st, repo: repo, r: NewRunner(repo),
			spec: Spec{Site: "chatgpt", TargetID: tab.ID(), Prompt: prompt, Deadline: time.Now().Add(60 * time.Second)}}
	}
	fillAt := func(t *testing.T, g *rig, at State) (released func()) {
		release := func() {}
		stop := g.r.Subscribe(func(ev Event) {
			if ev.Kind == EventState && ev.State == at {
				release = spacetest.Fill(t, g.disk, 0)
			}
		})
		t.Cleanup(stop)
		return func() { release() }
	}
	run := func(t *testing.T, g *rig) (*Session, *Session, error) {
		s, err := g.r.Create(ctx, g.spec)
		if err != nil {
			t.Fatal(err)
		}
		a, _, err := adapterFor(ctx, b, g.spec.TargetID)
		if err != nil {
			t.Fatal(err)
		}
		out, err := g.r.Run(ctx, s.ID, a)
		return s, out, err
	}

	t.Run("a disk already full refuses the run before anything is typed or sent", func(t *testing.T) {
		srv.Reset()
		g := setup(t, "disk check: full before the run")
		spacetest.Fill(t, g.disk, 0)
		_, err := g.r.Create(ctx, g.spec)
		if !errs.Has(err, errs.DiskFull) || errs.ExitCode(err) != errs.ClassDiskFull.ExitCode() {
			t.Fatalf("create on a full disk: %v, want disk_full", err)
		}
		if n := countPrompt(srv, g.spec.Prompt); n != 0 {
			t.Fatalf("the site received the prompt %d times", n)
		}
	})

	t.Run("a disk that fills before the send stops the run at its next write and nothing is sent", func(t *testing.T) {
		srv.Reset()
		g := setup(t, "disk check: fills before the send")
		release := fillAt(t, g, StatePreflighted)
		s, out, err := run(t, g)
		if !errs.Has(err, errs.DiskFull) {
			t.Fatalf("run: %v, want disk_full", err)
		}
		if n := countPrompt(srv, g.spec.Prompt); n != 0 {
			t.Fatalf("the site received the prompt %d times after the store refused", n)
		}
		if out != nil && out.Answer != "" {
			t.Fatalf("an answer came without a send: %+v", out)
		}
		release()
		stored, gerr := g.repo.Get(ctx, s.ID)
		if gerr != nil || stored.State != StatePreflighted {
			t.Fatalf("stored run %+v, %v: want it left at preflighted, never at submitting", stored, gerr)
		}
		if _, _, held := g.repo.Held(s.ID); held {
			t.Fatal("a run not sent was held in memory")
		}
	})

	t.Run("a disk that fills after the send keeps the answer in memory and says it was not journaled", func(t *testing.T) {
		srv.Reset()
		g := setup(t, "disk check: fills after the send")
		release := fillAt(t, g, StateSubmitted)
		s, out, err := run(t, g)
		env := errs.From(err)
		if env == nil || env.Code != errs.DiskFull || env.Evidence["session"] != s.ID || env.Evidence["journaled_state"] != string(StateSubmitted) ||
			env.Evidence["dir"] != g.dir || !strings.Contains(env.RetryHint, "ferry reattach --session "+s.ID) {
			t.Fatalf("run error %+v, want disk_full naming the session, the store and the state journaled", env)
		}
		if out == nil || out.State != StateDone || !strings.Contains(out.Answer, "fills after the send") {
			t.Fatalf("returned run %+v: want it done with its answer", out)
		}
		if n := countPrompt(srv, g.spec.Prompt); n != 1 {
			t.Fatalf("the site received the prompt %d times, want 1", n)
		}
		shown, gerr := g.repo.Get(ctx, s.ID)
		if gerr != nil || shown.State != StateDone || shown.Answer != out.Answer {
			t.Fatalf("the repository shows %+v, %v: want the held answer", shown, gerr)
		}
		if active, err := g.repo.Active(ctx); err != nil || len(active) != 0 {
			t.Fatalf("active runs %v, %v: a run done in memory is not in flight", active, err)
		}
		want := []State{StateResolved, StatePreflighted, StateComposed, StateSubmitting, StateSubmitted, StateStreaming,
			StateCompleted, StateExtracted, StateDone}
		if got := journalStates(t, g.repo, s.ID); !slices.Equal(got, want) {
			t.Fatalf("journal shown %v, want %v", got, want)
		}
		fresh, err := OpenRepo(ctx, g.st)
		if err != nil {
			t.Fatal(err)
		}
		if stored, _ := fresh.Get(ctx, s.ID); stored == nil || stored.State != StateSubmitted {
			t.Fatalf("stored run %+v: want it journaled up to submitted, reattachable", stored)
		}

		// Once there is room, the next write of the run journals the rest.
		release()
		if _, err := g.repo.Update(ctx, s.ID, "", func(*Session) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if _, _, held := g.repo.Held(s.ID); held {
			t.Fatal("the run is still held after a write succeeded")
		}
		stored, err := fresh.Get(ctx, s.ID)
		if err != nil || stored.State != StateDone || stored.Answer != out.Answer {
			t.Fatalf("stored run after the disk was freed: %+v, %v", stored, err)
		}
		if got := journalStates(t, fresh, s.ID); !slices.Equal(got, want) {
			t.Fatalf("stored journal %v, want %v", got, want)
		}
	})
}

func journalStates(t *testing.T, repo *Repo, id string) []State {
	t.Helper()
	j, err := repo.Journal(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]State, len(j))
	for i, e := range j {
		out[i] = e.State
	}
	return out
}
