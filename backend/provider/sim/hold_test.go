package sim

import (
	"context"
	"testing"
	"testing/synctest"
)

// TestAHeldAnswerEndsOnlyWhenReleased: a turn naming a hold streams every
// piece but its last, then waits for Release however long that takes (in
// the synctest bubble, "waits" is every goroutine blocked, not a sleep); a
// released hold stays open; Reset ends the holds a test left; a turn
// stopped while held ends at once with its last piece unsent.
func TestAHeldAnswerEndsOnlyWhenReleased(t *testing.T) {
	sc, err := ParseScenario("scenario=long size=64 hold=story")
	if err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		s := New(WithPace(4, 0))
		var sent []string
		var ended, all bool
		start := func(ctx context.Context) Turn {
			tr := Turn{Scenario: sc, Answer: AnswerFor(ChatGPT, sc, "a held story"), Pace: s.PaceFor(sc), hold: s.Hold(sc)}
			sent, ended, all = nil, false, false
			go func() {
				all = tr.pieces(ctx, tr.Answer.Text, func(_, so string) { sent = append(sent, so) })
				ended = true
			}()
			synctest.Wait()
			return tr
		}
		held := func(tr Turn, when string) {
			t.Helper()
			n := len(Chunks(tr.Answer.Text, 4))
			if ended || len(sent) != n-1 {
				t.Fatalf("%s: the turn sent %d of %d pieces (ended %v), want all but the last, held", when, len(sent), n, ended)
			}
		}

		tr := start(context.Background())
		held(tr, "before the release")
		s.Release("story")
		synctest.Wait()
		if !ended || !all || sent[len(sent)-1] != tr.Answer.Text {
			t.Fatalf("after the release the turn ended %v (all sent %v), want the whole answer", ended, all)
		}

		start(context.Background())
		if !ended || !all {
			t.Fatal("a turn naming a released hold was held")
		}

		s.Reset()
		tr = start(context.Background())
		held(tr, "after Reset")
		s.Reset()
		synctest.Wait()
		if !ended || !all {
			t.Fatal("Reset did not end a held turn")
		}

		ctx, cancel := context.WithCancel(context.Background())
		s.Reset()
		tr = start(ctx)
		held(tr, "before the stop")
		cancel()
		synctest.Wait()
		if !ended || all {
			t.Fatalf("a held turn that was stopped ended %v, all sent %v: want ended, its last piece unsent", ended, all)
		}
	})
}
