package sim

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider/sim/simzip"
)

// TestContractScenariosMeetOrBreakTheRealContracts renders the prompts of
// the all contract with Ferry's own templates and judges the simulator's
// answers with Ferry's own checker.
func TestContractScenariosMeetOrBreakTheRealContracts(t *testing.T) {
	steps, err := prompt.Compose(prompt.Request{Task: "Build a greeting CLI", Contract: prompt.ContractAll, Authorized: true, Zip: true})
	if err != nil || len(steps) != 3 {
		t.Fatalf("compose: %d steps, %v", len(steps), err)
	}
	byContract := map[prompt.Contract]string{}
	for _, s := range steps {
		byContract[s.Contract] = s.Prompt
	}
	for _, tc := range []struct {
		name     string
		sc       Scenario
		contract prompt.Contract
		code     errs.Code // "" = the deliverable is met
		ruling   string
	}{
		{"an assess prompt gets a diagnosis and a passing ruling", Scenario{Name: ScenarioAssess}, prompt.ContractAssess, "", prompt.RulingPass},
		{"an assess prompt can be ruled blocked with a reason", Scenario{Name: ScenarioAssess, Params: map[string]string{"ruling": "blocked"}}, prompt.ContractAssess, "", prompt.RulingBlocked},
		{"an assess prompt can be ruled out of scope", Scenario{Name: ScenarioAssess, Params: map[string]string{"ruling": "rejected"}}, prompt.ContractAssess, "", prompt.RulingRejected},
		{"assess_no_ruling leaves the ruling out", Scenario{Name: ScenarioAssessNoRuling}, prompt.ContractAssess, errs.DeliverableMissing, ""},
		{"a plan prompt gets a TASK_PLAN with files and proof per step", Scenario{Name: ScenarioPlan}, prompt.ContractPlan, "", ""},
		{"plan_no_proof leaves every step without its proof", Scenario{Name: ScenarioPlanNoProof}, prompt.ContractPlan, errs.ContractViolation, ""},
		{"plan_no_proof still answers the assess step whole", Scenario{Name: ScenarioPlanNoProof}, prompt.ContractAssess, "", prompt.RulingPass},
		{"assess_no_ruling still answers the plan step whole", Scenario{Name: ScenarioAssessNoRuling}, prompt.ContractPlan, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := AnswerFor(ChatGPT, tc.sc, byContract[tc.contract])
			o, err := prompt.Check(tc.contract, a.Text, nil)
			if tc.code != "" {
				if !errs.Has(err, tc.code) {
					t.Fatalf("check = %v, want %s\n%s", err, tc.code, a.Text)
				}
				return
			}
			if err != nil {
				t.Fatalf("check: %v\n%s", err, a.Text)
			}
			if o.Ruling != tc.ruling || (tc.contract == prompt.ContractPlan && o.PlanSteps != 3) {
				t.Fatalf("outcome %+v, want ruling %q / 3 plan steps", o, tc.ruling)
			}
			if len(a.Zips) != 0 {
				t.Fatalf("a %s answer carries zips %+v", tc.contract, a.Zips)
			}
		})
	}
	t.Run("a code prompt under a contract scenario gets the sandbox zip", func(t *testing.T) {
		for _, name := range []string{ScenarioAssess, ScenarioAssessNoRuling, ScenarioPlan, ScenarioPlanNoProof} {
			a := AnswerFor(ChatGPT, Scenario{Name: name}, byContract[prompt.ContractCode])
			if len(a.Zips) != 1 || a.Zips[0].Name != "project.zip" || a.Zips[0].Kind != simzip.Good {
				t.Fatalf("%s: zips %+v, want one good project.zip", name, a.Zips)
			}
		}
	})
	t.Run("a directive's contract scenario carries over to the conversation's later turns", func(t *testing.T) {
		s := New()
		first := byContract[prompt.ContractAssess] + "\n" + Directive(ScenarioPlanNoProof)
		if sc := s.TurnScenario(ChatGPT, "conv-1", first); sc.Name != ScenarioPlanNoProof {
			t.Fatalf("first turn: %s", sc.Name)
		}
		if sc := s.TurnScenario(ChatGPT, "conv-1", byContract[prompt.ContractPlan]); sc.Name != ScenarioPlanNoProof {
			t.Fatalf("second turn of the conversation: %s, want %s", sc.Name, ScenarioPlanNoProof)
		}
		if sc := s.TurnScenario(ChatGPT, "conv-2", byContract[prompt.ContractPlan]); sc.Name != ScenarioNormal {
			t.Fatalf("another conversation: %s, want normal", sc.Name)
		}
		// Other turn scenarios stay with their prompt.
		s.TurnScenario(ChatGPT, "conv-3", "x "+Directive(ScenarioInlineCode))
		if sc := s.TurnScenario(ChatGPT, "conv-3", "y"); sc.Name != ScenarioNormal {
			t.Fatalf("inline_code carried over: %s", sc.Name)
		}
	})
}

// TestByContractAnswersWhatThePromptAsks is the demo's default: a code-mode
// prompt gets its zip, a plain prompt the normal answer.
func TestByContractAnswersWhatThePromptAsks(t *testing.T) {
	steps, err := prompt.Compose(prompt.Request{Task: "Build a greeting CLI", Contract: prompt.ContractCode, Authorized: true, Zip: true})
	if err != nil || len(steps) != 1 {
		t.Fatalf("compose: %d steps, %v", len(steps), err)
	}
	sc := Scenario{Name: ScenarioByContract}
	t.Run("a code prompt gets one good project.zip on ChatGPT", func(t *testing.T) {
		a := AnswerFor(ChatGPT, sc, steps[0].Prompt)
		if len(a.Zips) != 1 || a.Zips[0].Name != "project.zip" || a.Zips[0].Kind != simzip.Good {
			t.Fatalf("zips %+v, want one good project.zip", a.Zips)
		}
	})
	t.Run("a plain prompt gets the normal answer and no zip", func(t *testing.T) {
		a := AnswerFor(Claude, sc, "Compare ferries and bridges")
		if a.Text != normalText("Compare ferries and bridges") || len(a.Zips) != 0 {
			t.Fatalf("answer %q with zips %+v, want the normal answer", a.Text, a.Zips)
		}
	})
	t.Run("set for every site, it answers turns without a directive", func(t *testing.T) {
		s := New(WithScenario("", sc))
		if got := s.TurnScenario(Gemini, "c", "hello"); got.Name != ScenarioByContract {
			t.Fatalf("turn scenario %s, want %s", got.Name, ScenarioByContract)
		}
	})
}
