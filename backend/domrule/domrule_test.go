package domrule

import (
	"testing"
	"time"
)

func TestRule(t *testing.T) {
	streaming := func(text string) State { return State{HasTurn: true, Stop: true, Text: text} }
	busy := func(text string) State { return State{HasTurn: true, Busy: true, Text: text} }
	finished := func(text string) State { return State{HasTurn: true, Finished: true, Text: text} }
	bare := func(text string) State { return State{HasTurn: true, Text: text} }
	type step struct {
		st    State
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
			FinishedReason},
		{"two finished samples are not enough",
			[]step{{streaming("I"), 0}, {finished("Done."), 0}, {finished("Done."), long}},
			""},
		{"a lone stable I under a stop control never ends the turn",
			[]step{{streaming("I"), 0}, {streaming("I"), long}, {streaming("I"), 2 * long}, {streaming("I"), 3 * long}},
			""},
		{"a finished bar beside a stop control is not an end",
			[]step{{State{HasTurn: true, Stop: true, Finished: true, Text: "x"}, 0}, {State{HasTurn: true, Stop: true, Finished: true, Text: "x"}, long},
				{State{HasTurn: true, Stop: true, Finished: true, Text: "x"}, long}, {State{HasTurn: true, Stop: true, Finished: true, Text: "x"}, long}},
			""},
		{"a busy marker (streaming attribute still true) keeps the turn open",
			[]step{{State{HasTurn: true, Busy: true, Finished: true, Text: "x"}, long}, {State{HasTurn: true, Busy: true, Finished: true, Text: "x"}, long},
				{State{HasTurn: true, Busy: true, Finished: true, Text: "x"}, long}},
			""},
		{"text that changes between samples restarts the count",
			[]step{{streaming("a"), 0}, {finished("ab"), 0}, {finished("ab"), 0}, {finished("abc"), 0}, {finished("abc"), 0}},
			""},
		{"text that changes between samples is confirmed once it holds",
			[]step{{streaming("a"), 0}, {finished("ab"), 0}, {finished("abc"), 0}, {finished("abc"), 0}, {finished("abc"), 0}},
			FinishedReason},
		{"a sample without the bar restarts the count",
			[]step{{streaming("a"), 0}, {finished("ab"), 0}, {finished("ab"), 0}, {streaming("ab"), 0}, {finished("ab"), 0}},
			""},
		{"an empty answer with the bar is not an end (a thinking phase)",
			[]step{{finished(""), long}, {finished(""), long}, {finished(""), long}, {finished(""), long}},
			""},
		{"without a bar, a turn seen generating ends after the quiet window",
			[]step{{streaming("Hello"), 0}, {bare("Hello world"), 0}, {bare("Hello world"), time.Second}, {bare("Hello world"), QuietWindow}},
			QuietReason},
		{"without a bar, a quiet page never seen generating is not an end",
			[]step{{bare("Hello"), 0}, {bare("Hello"), long}, {bare("Hello"), 2 * long}},
			""},
		{"without a bar, a pause under the stop control is not an end",
			[]step{{busy("Hello"), 0}, {busy("Hello"), long}, {streaming("Hello"), 2 * long}},
			""},
		{"no turn yet is not an end",
			[]step{{State{Stop: true}, 0}, {State{Finished: true, Text: "old"}, long}, {State{Finished: true, Text: "old"}, long}, {State{Finished: true, Text: "old"}, long}},
			""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r Rule
			for i, s := range c.steps {
				got := r.Sample(s.st, s.quiet)
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

func TestRuleConfirmsQuickly(t *testing.T) {
	var r Rule
	r.Sample(State{HasTurn: true, Stop: true, Text: "a"}, 0)
	if r.Confirming() {
		t.Fatal("confirming while the stop control shows")
	}
	r.Sample(State{HasTurn: true, Finished: true, Text: "ab"}, 0)
	if !r.Confirming() {
		t.Fatal("a first finished sample does not ask for quick samples")
	}
}
