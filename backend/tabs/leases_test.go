package tabs_test

import (
	"context"
	"strings"
	"testing"
	"time"

	_ "github.com/ferrydesk/ferry/backend/provider/all" // the built-in sites
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// TestLeases: a run waits for a named tab another run holds, told so
// through its Run, and gets it when that run detaches; a run's leases last
// its Run's Life rather than its context; and the table is its owner's
// value, not the process's: another table does not see its leases.
func TestLeases(t *testing.T) {
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// The bound catches a hang; every wait below is on an event.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	reg := site.Builtin()

	// waitFor resolves tab id for a run in l in the background, and
	// returns the run's queue notices and the end of its resolution.
	type resolved struct {
		id  string
		err error
	}
	waitFor := func(l *tabs.Leases, id string) (<-chan string, <-chan resolved) {
		notes, done := make(chan string, 4), make(chan resolved, 1)
		go func() {
			p, _, _, err := l.Resolve(ctx, tabs.Run{Queued: func(w string) { notes <- w }}, h.Browser, reg, "", id)
			r := resolved{err: err}
			if p != nil {
				r.id = p.ID()
			}
			done <- r
		}()
		return notes, done
	}

	t.Run("a named tab another run holds is waited for, said through the Run, and taken once it is free", func(t *testing.T) {
		l := tabs.NewLeases()
		p, _, err := l.OpenSite(ctx, tabs.Run{}, h.Browser, reg, sim.ChatGPT)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.WithoutCancel(ctx))
		notes, done := waitFor(l, p.ID())
		if w := <-notes; !strings.Contains(w, "ChatGPT tab, which another run drives") {
			t.Fatalf("the waiting run was told %q", w)
		}
		if err := p.Detach(ctx); err != nil {
			t.Fatal(err)
		}
		if r := <-done; r.err != nil || r.id != p.ID() {
			t.Fatalf("the waiting run resolved %q, %v; want tab %s", r.id, r.err, p.ID())
		}
		if w := <-notes; w != "" {
			t.Fatalf("the run that got its tab was told %q, want the empty notice", w)
		}
	})

	t.Run("a run's lease lasts its Life, not its context", func(t *testing.T) {
		l := tabs.NewLeases()
		life, endLife := context.WithCancel(context.Background())
		runCtx, endRun := context.WithCancel(ctx)
		p, _, err := l.OpenSite(runCtx, tabs.Run{Life: life}, h.Browser, reg, sim.ChatGPT)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.WithoutCancel(ctx))
		endRun()
		notes, done := waitFor(l, p.ID())
		if w := <-notes; !strings.Contains(w, "another run drives") {
			t.Fatalf("after the run's context ended, a run was told %q", w)
		}
		endLife()
		if r := <-done; r.err != nil || r.id != p.ID() {
			t.Fatalf("after the lease's life ended, a run resolved %q, %v", r.id, r.err)
		}
	})

	t.Run("another table does not see a table's leases", func(t *testing.T) {
		mine, theirs := tabs.NewLeases(), tabs.NewLeases()
		p, _, err := mine.OpenSite(ctx, tabs.Run{}, h.Browser, reg, sim.ChatGPT)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.WithoutCancel(ctx))
		notes, done := waitFor(theirs, p.ID())
		if r := <-done; r.err != nil || r.id != p.ID() {
			t.Fatalf("the other table's run resolved %q, %v", r.id, r.err)
		}
		if len(notes) != 0 {
			t.Fatalf("the other table's run waited: %q", <-notes)
		}
	})
}
