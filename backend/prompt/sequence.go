package prompt

import (
	"context"
)

// Answer is what the site returned for one step.
type Answer struct {
	Text string
	Zips []Zip
}

// Asker sends one step on the run's tab and returns the answer. The job
// package implements it; every step of a sequence goes to the same tab.
type Asker func(ctx context.Context, step Step) (Answer, error)

// StepResult is the record of one step that was sent.
type StepResult struct {
	Step    Step     `json:"step"`
	Outcome *Outcome `json:"outcome,omitempty"`
	Err     error    `json:"-"`
}

// Drive sends the steps in order and checks each answer against its
// contract. It stops at the first step whose deliverable is missing or
// malformed (returning that envelope) and at an assess ruling other than
// PASS_CURRENT_GATE (returning nil: the model answered, and said not to go
// on). An error from ask is returned as is. The results list every step
// that was sent.
func Drive(ctx context.Context, steps []Step, ask Asker) ([]StepResult, error) {
	var out []StepResult
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		a, err := ask(ctx, s)
		if err != nil {
			return out, err
		}
		o, err := Check(s.Contract, a.Text, a.Zips)
		out = append(out, StepResult{Step: s, Outcome: o, Err: err})
		if err != nil {
			return out, err
		}
		if s.Contract == ContractAssess && o.Ruling != RulingPass {
			return out, nil
		}
	}
	return out, nil
}
