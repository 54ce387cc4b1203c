package tabs

import (
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
)

// Ledger is the one place that keeps what Ferry learned about each tab
// of a browser, by TargetID: a tab's state is whatever the last look at it
// learned, a check (the probe of States) or a run (a run that failed as
// logged out marks its tab logged out; a run that got its answer, or the
// next check that sees the account, clears it). The Tabs view, the
// gateway's tab list and the desktop's other faces read it through
// States, so they cannot disagree. The zero value is an empty ledger; a
// nil *Ledger learns nothing.
type Ledger struct {
	mu      sync.Mutex
	tabs    map[string]learnedTab
	unsure  map[string]int // looks in a row that could not tell, by tab
	recheck *time.Timer
	changed func() // may be nil; called outside mu
}

// The looks again at a tab whose page could not tell its state yet (it
// was loading): after recheckAfter, at most maxRechecks times in a row.
const (
	recheckAfter = 1500 * time.Millisecond
	maxRechecks  = 5
)

// couldNotTell notes that a look at tab id could not tell its state (its
// page was still loading) and has the listener told again a little later,
// so that the list asks once more, a few times at most.
func (l *Ledger) couldNotTell(id string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.unsure == nil {
		l.unsure = map[string]int{}
	}
	l.unsure[id]++
	if l.unsure[id] > maxRechecks || l.changed == nil || l.recheck != nil {
		return
	}
	changed := l.changed
	l.recheck = time.AfterFunc(recheckAfter, func() {
		l.mu.Lock()
		l.recheck = nil
		l.mu.Unlock()
		changed()
	})
}

// learnedTab is the last thing learned about one tab.
type learnedTab struct {
	State   Readiness
	Code    errs.Code
	Message string
	Hint    string
	At      time.Time
	// ByRun says a run learned it (else a check did).
	ByRun bool
}

// learn records what a look at tab id found, and tells the listener when
// the tab's state changed.
func (l *Ledger) learn(id string, t learnedTab) {
	if l == nil || id == "" {
		return
	}
	l.mu.Lock()
	if l.tabs == nil {
		l.tabs = map[string]learnedTab{}
	}
	prev, had := l.tabs[id]
	t.At = time.Now()
	l.tabs[id] = t
	delete(l.unsure, id)
	changed := l.changed
	l.mu.Unlock()
	if changed != nil && (!had || prev.State != t.State || prev.Code != t.Code) {
		changed()
	}
}

// last is what the last look at tab id learned.
func (l *Ledger) last(id string) (learnedTab, bool) {
	if l == nil {
		return learnedTab{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.tabs[id]
	return t, ok
}

// forget drops what was learned about the tabs not in open (closed tabs).
func (l *Ledger) forget(open map[string]bool) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for id := range l.tabs {
		if !open[id] {
			delete(l.tabs, id)
		}
	}
	for id := range l.unsure {
		if !open[id] {
			delete(l.unsure, id)
		}
	}
}

// OnChange sets fn (which must return quickly) as the listener told of
// every change of a tab's state, and again a little later after a look
// that could not tell.
func (l *Ledger) OnChange(fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.changed = fn
}

// loginHint is what the user does about a logged-out tab.
const loginHint = "Log in shows the site's login page in this tab"

// LearnFromRun records what run s, which ended with err, learned about its
// tab: logged out when it failed for want of a logged-in account, ready
// when it got its answer.
func (l *Ledger) LearnFromRun(s *job.Session, err error) {
	if s == nil || s.TargetID == "" {
		return
	}
	switch {
	case errs.Has(err, errs.LoginRequired):
		l.learn(s.TargetID, learnedTab{State: NeedsLogin, Code: errs.LoginRequired, Message: errs.From(err).Message, Hint: loginHint, ByRun: true})
	case err == nil && s.State == job.StateDone:
		l.learn(s.TargetID, learnedTab{State: Ready, ByRun: true})
	}
}

// apply sets ts's state to what was learned.
func (t learnedTab) apply(ts *State) {
	ts.State, ts.Code, ts.Message, ts.Hint = t.State, t.Code, t.Message, t.Hint
}

// learnedOf is what ts says about its tab, to record.
func learnedOf(ts State) learnedTab {
	return learnedTab{State: ts.State, Code: ts.Code, Message: ts.Message, Hint: ts.Hint}
}
