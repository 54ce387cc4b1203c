package provider

import (
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/stream"
)

func TestDOMRule(t *testing.T) {
	streaming := func(text string) pageState { return pageState{HasTurn: true, Stop: true, Text: text} }
	busy := func(text string) pageState { return pageState{HasTurn: true, Busy: true, Text: text} }
	finished := func(text string) pageState { return pageState{HasTurn: true, Finished: true, Text: text} }
	bare := func(text string) pageState { return pageState{HasTurn: true, Text: text} }
	type step struct {
		st    pageState
		quiet time.Duration
	}
	long := 5 * time.Second
	cases := []struct {
		name  string
		steps []step
		want  string // the reason at the last step; every earlier step must give ""
	}{
		{"a finished bar, no stop and the same text in three samples end the turn",
			[]step{{streaming("I"), 0}, {finished("I am done."), 0}, {finished("I am done."), 40 * time.Millisecond}, {finished("I am done."), 80 * time.Millisecond}},
			finishedReason},
		{"two finished samples are not enough",
			[]step{{streaming("I"), 0}, {finished("Done."), 0}, {finished("Done."), long}},
			""},
		{"a lone stable I under a stop control never ends the turn",
			[]step{{streaming("I"), 0}, {streaming("I"), long}, {streaming("I"), 2 * long}, {streaming("I"), 3 * long}},
			""},
		{"a finished bar beside a stop control is not an end",
			[]step{{pageState{HasTurn: true, Stop: true, Finished: true, Text: "x"}, 0}, {pageState{HasTurn: true, Stop: true, Finished: true, Text: "x"}, long},
				{pageState{HasTurn: true, Stop: true, Finished: true, Text: "x"}, long}, {pageState{HasTurn: true, Stop: true, Finished: true, Text: "x"}, long}},
			""},
		{"a busy marker (streaming attribute still true) keeps the turn open",
			[]step{{pageState{HasTurn: true, Busy: true, Finished: true, Text: "x"}, long}, {pageState{HasTurn: true, Busy: true, Finished: true, Text: "x"}, long},
				{pageState{HasTurn: true, Busy: true, Finished: true, Text: "x"}, long}},
			""},
		{"text that changes between samples restarts the count",
			[]step{{streaming("a"), 0}, {finished("ab"), 0}, {finished("ab"), 0}, {finished("abc"), 0}, {finished("abc"), 0}},
			""},
		{"text that changes between samples is confirmed once it holds",
			[]step{{streaming("a"), 0}, {finished("ab"), 0}, {finished("abc"), 0}, {finished("abc"), 0}, {finished("abc"), 0}},
			finishedReason},
		{"a sample without the bar restarts the count",
			[]step{{streaming("a"), 0}, {finished("ab"), 0}, {finished("ab"), 0}, {streaming("ab"), 0}, {finished("ab"), 0}},
			""},
		{"an empty answer with the bar is not an end (a thinking phase)",
			[]step{{finished(""), long}, {finished(""), long}, {finished(""), long}, {finished(""), long}},
			""},
		{"without a bar, a turn seen generating ends after the quiet window",
			[]step{{streaming("Hello"), 0}, {bare("Hello world"), 0}, {bare("Hello world"), time.Second}, {bare("Hello world"), quietWindow}},
			quietReason},
		{"without a bar, a quiet page never seen generating is not an end",
			[]step{{bare("Hello"), 0}, {bare("Hello"), long}, {bare("Hello"), 2 * long}},
			""},
		{"without a bar, a pause under the stop control is not an end",
			[]step{{busy("Hello"), 0}, {busy("Hello"), long}, {streaming("Hello"), 2 * long}},
			""},
		{"no turn yet is not an end",
			[]step{{pageState{Stop: true}, 0}, {pageState{Finished: true, Text: "old"}, long}, {pageState{Finished: true, Text: "old"}, long}, {pageState{Finished: true, Text: "old"}, long}},
			""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r domRule
			for i, s := range c.steps {
				got := r.sample(s.st, s.quiet)
				if i < len(c.steps)-1 && got != "" {
					t.Fatalf("step %d ended the turn early (%s)", i, got)
				}
				if i == len(c.steps)-1 && got != c.want {
					t.Fatalf("last step: %q, want %q", got, c.want)
				}
			}
		})
	}
}

func TestDOMRuleConfirmsQuickly(t *testing.T) {
	var r domRule
	r.sample(pageState{HasTurn: true, Stop: true, Text: "a"}, 0)
	if r.confirming() {
		t.Fatal("confirming while the stop control shows")
	}
	r.sample(pageState{HasTurn: true, Finished: true, Text: "ab"}, 0)
	if !r.confirming() {
		t.Fatal("a first finished sample does not ask for quick samples")
	}
}

// TestAHandedOffTurnLeavesTheSocketOnlyAfterThePageWouldHave: the DOM takes
// over a handed-off turn only when the page's socket stays silent longer
// than the page itself waits for it.
func TestAHandedOffTurnLeavesTheSocketOnlyAfterThePageWouldHave(t *testing.T) {
	handedOff := stream.Result{Handoff: true}
	cases := []struct {
		name string
		ss   streamState
		want bool
	}{
		{"a turn not handed off", streamState{ended: true, socketQuiet: time.Hour}, false},
		{"the response still open", streamState{res: handedOff, socketQuiet: time.Hour}, false},
		{"no item yet, within the first wait", streamState{res: handedOff, ended: true, socketQuiet: socketFirstSilence - time.Second}, false},
		{"no item after the first wait", streamState{res: handedOff, ended: true, socketQuiet: socketFirstSilence + time.Second}, true},
		{"items coming, a pause shorter than the page's", streamState{res: handedOff, ended: true, socketItems: 4, socketQuiet: socketSilence - time.Second}, false},
		{"items stopped longer than the page waits", streamState{res: handedOff, ended: true, socketItems: 4, socketQuiet: socketSilence + time.Second}, true},
	}
	for _, tc := range cases {
		if got := socketLost(tc.ss); got != tc.want {
			t.Errorf("%s: socketLost = %v, want %v", tc.name, got, tc.want)
		}
	}
}
