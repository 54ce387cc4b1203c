package sim

import (
	"fmt"
	"regexp"
	"strings"
)

// The output-contract scenarios. Ferry's code mode asks for an assess
// answer (DIAGNOSIS and one ruling), a plan (TASK_PLAN whose steps each name
// a file boundary and a live proof) or code; the `all` contract sends the
// three in order on the same tab, and only the first message carries the
// task (and so the directive). A contract scenario therefore answers each
// turn by the contract its prompt asks for ("OUTPUT CONTRACT: assess" ...),
// and, chosen by a directive, stays the scenario of the conversation's later
// turns. The broken variants spoil one deliverable and leave the others
// whole, so a chain stops exactly where they say.
const (
	// ScenarioAssess: an assess prompt gets a DIAGNOSIS and one ruling
	// (param ruling: pass, default; blocked; rejected), a plan prompt a
	// TASK_PLAN, a code prompt ChatGPT's sandbox zip (as code_zip).
	ScenarioAssess = "assess"
	// ScenarioAssessNoRuling: as assess, but the assess answer stops after
	// its DIAGNOSIS: no ruling line.
	ScenarioAssessNoRuling = "assess_no_ruling"
	// ScenarioPlan: as assess (the same answers to every contract).
	ScenarioPlan = "plan"
	// ScenarioPlanNoProof: as plan, but the TASK_PLAN's steps name no live
	// proof.
	ScenarioPlanNoProof = "plan_no_proof"
	// ScenarioByContract answers a prompt by the contract its "OUTPUT
	// CONTRACT:" line asks for (a code prompt gets ChatGPT's sandbox zip,
	// as code_zip) and any other prompt normally, as a real site answers
	// whatever it is sent: the default of the desktop's demo.
	ScenarioByContract = "by_contract"
)

// contractScenario reports whether name is one of the output-contract
// scenarios, which carry over to the conversation's later turns.
func contractScenario(name string) bool {
	switch name {
	case ScenarioAssess, ScenarioAssessNoRuling, ScenarioPlan, ScenarioPlanNoProof, ScenarioByContract:
		return true
	}
	return false
}

var contractRE = regexp.MustCompile(`(?m)^OUTPUT CONTRACT:\s*([a-z]+)`)

// askedContract is the contract a prompt asks for: the last "OUTPUT
// CONTRACT:" line, else the scenario's own (assess or plan; none for
// by_contract).
func askedContract(sc Scenario, prompt string) string {
	if m := contractRE.FindAllStringSubmatch(prompt, -1); len(m) > 0 {
		return m[len(m)-1][1]
	}
	if sc.Name == ScenarioByContract {
		return ""
	}
	if strings.HasPrefix(sc.Name, ScenarioPlan) {
		return "plan"
	}
	return "assess"
}

// contractAnswer is the answer of site to prompt under a contract scenario.
func contractAnswer(site string, sc Scenario, prompt string) Answer {
	a := Answer{Model: defaultModel(site)}
	switch askedContract(sc, prompt) {
	case "assess":
		a.Text = assessText(prompt, sc)
	case "plan":
		a.Text = planText(prompt, sc.Name != ScenarioPlanNoProof)
	case "code":
		st, _ := lookup(site)
		if st.CodeModel == "" {
			a.Text = inlineCodeText(prompt)
			return a
		}
		a = codeModeAnswer(Scenario{Name: ScenarioCodeZip, Params: sc.Params}, prompt)
		a.Model = st.CodeModel
	default:
		a.Text = normalText(prompt)
	}
	return a
}

// assessText is a DIAGNOSIS and, unless the scenario is assess_no_ruling,
// one ruling alone on its line.
func assessText(prompt string, sc Scenario) string {
	var b strings.Builder
	fmt.Fprintf(&b, "DIAGNOSIS\n\nThe task “%s” starts from a clean tree: the build passes and nothing in the way of the goal is broken. "+
		"The one risk is the missing test for the entry point, which the plan should cover first.\n", PromptTopic(prompt))
	if sc.Name == ScenarioAssessNoRuling {
		b.WriteString("\nI would need to look further before ruling on this gate.")
		return b.String()
	}
	ruling := "PASS_CURRENT_GATE"
	switch sc.Param("ruling", "pass") {
	case "blocked":
		ruling = "BLOCKED_CURRENT_GATE: the build is red on main"
	case "rejected":
		ruling = "REJECTED_SCOPE_EXPANSION"
	}
	fmt.Fprintf(&b, "\nRULING\n\n%s", ruling)
	return b.String()
}

// planText is a TASK_PLAN of three numbered steps, each with its file
// boundary and, when proof is true, its live proof.
func planText(prompt string, proof bool) string {
	steps := []struct{ what, files, proof string }{
		{"Add the entry point and its flag parsing.", "cmd/greet/main.go", "go run ./cmd/greet --name Ferry prints Hello, Ferry!"},
		{"Cover the greeting with a table test.", "greet/greet.go, greet/greet_test.go", "go test ./greet/... passes with 3 cases"},
		{"Package the project as the sandbox zip.", "README.md", "unzip -l /mnt/data/project.zip lists README.md and cmd/greet/main.go"},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Here is the plan for “%s”.\n\nTASK_PLAN\n", PromptTopic(prompt))
	for i, s := range steps {
		fmt.Fprintf(&b, "\n%d. %s\nFiles: %s\n", i+1, s.what, s.files)
		if proof {
			fmt.Fprintf(&b, "Proof: %s\n", s.proof)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
