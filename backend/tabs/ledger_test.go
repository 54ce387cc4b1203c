package tabs

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
)

func TestTheTabLedgerKeepsWhatTheLastLookLearned(t *testing.T) {
	t.Run("a run that failed as logged out marks its tab logged out, and the next check that sees the account clears it", func(t *testing.T) {
		var l Ledger
		var told atomic.Int32
		l.OnChange(func() { told.Add(1) })
		l.LearnFromRun(&job.Session{TargetID: "T1", State: job.StateFailed}, errs.New(errs.LoginRequired, "ChatGPT shows no logged-in account"))
		got, ok := l.last("T1")
		if !ok || got.State != NeedsLogin || got.Code != errs.LoginRequired || !got.ByRun {
			t.Fatalf("after the run the tab is %+v (%v), want login learned by the run", got, ok)
		}
		if _, ok := l.last("T2"); ok {
			t.Fatal("another tab learned something")
		}
		l.learn("T1", learnedOf(State{State: Ready}))
		if got, _ := l.last("T1"); got.State != Ready || got.ByRun {
			t.Fatalf("after the check the tab is %+v, want ready learned by the check", got)
		}
		if n := told.Load(); n != 2 {
			t.Errorf("the listener was told %d times, want 2 (each change of state)", n)
		}
		l.learn("T1", learnedOf(State{State: Ready}))
		if n := told.Load(); n != 2 {
			t.Errorf("the same state again told the listener (%d times)", n)
		}
	})
	t.Run("a run that got its answer marks its tab ready; one cancelled learns nothing", func(t *testing.T) {
		var l Ledger
		l.LearnFromRun(&job.Session{TargetID: "T1", State: job.StateDone}, nil)
		l.LearnFromRun(&job.Session{TargetID: "T2", State: job.StateCancelled}, errs.New(errs.Cancelled, "cancelled"))
		if got, _ := l.last("T1"); got.State != Ready {
			t.Errorf("the answered run's tab is %q", got.State)
		}
		if _, ok := l.last("T2"); ok {
			t.Error("a cancelled run taught something about its tab")
		}
	})
	t.Run("closed tabs are forgotten", func(t *testing.T) {
		var l Ledger
		l.learn("T1", learnedOf(State{State: NeedsLogin}))
		l.learn("T2", learnedOf(State{State: Ready}))
		l.forget(map[string]bool{"T2": true})
		if _, ok := l.last("T1"); ok {
			t.Error("a closed tab is remembered")
		}
		if _, ok := l.last("T2"); !ok {
			t.Error("an open tab was forgotten")
		}
	})
	t.Run("a tab whose page could not tell is looked at again, a few times at most", func(t *testing.T) {
		var l Ledger
		var told atomic.Int32
		l.OnChange(func() { told.Add(1) })
		for i := 0; i < maxRechecks+3; i++ {
			l.couldNotTell("T1")
			deadline := time.Now().Add(3 * recheckAfter)
			for told.Load() < int32(min(i+1, maxRechecks)) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
		}
		time.Sleep(2 * recheckAfter)
		if n := told.Load(); n != maxRechecks {
			t.Errorf("the listener was told %d times, want %d", n, maxRechecks)
		}
	})
}
