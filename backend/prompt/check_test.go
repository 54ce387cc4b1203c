package prompt

import (
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestCheckAssess(t *testing.T) {
	cases := []struct {
		name   string
		answer string
		code   errs.Code // "" = meets the contract
		ruling string
		reason string
	}{
		{"a diagnosis and a pass ruling", "DIAGNOSIS\nThe API is versioned.\n\nRULING\nPASS_CURRENT_GATE\n", "", RulingPass, ""},
		{"Markdown headings and a bold ruling", "## Diagnosis\n- tests pass\n\n**RULING:** `PASS_CURRENT_GATE`", "", RulingPass, ""},
		{"a blocked ruling with its reason", "DIAGNOSIS: the migration is missing.\nBLOCKED_CURRENT_GATE: no migration for the users table", "", RulingBlocked, "no migration for the users table"},
		{"a rejected scope expansion", "DIAGNOSIS\nThe request adds billing.\nREJECTED_SCOPE_EXPANSION", "", RulingRejected, ""},
		{"a ruling token quoted in a code block is ignored", "DIAGNOSIS\nok\n```\nREJECTED_SCOPE_EXPANSION\n```\nPASS_CURRENT_GATE", "", RulingPass, ""},
		{"an empty answer", "  \n", errs.AnswerEmpty, "", ""},
		{"no diagnosis", "PASS_CURRENT_GATE", errs.DeliverableMissing, "", ""},
		{"an empty diagnosis", "DIAGNOSIS\n\nPASS_CURRENT_GATE", errs.DeliverableMissing, "", ""},
		{"no ruling", "DIAGNOSIS\nAll good, go ahead.", errs.DeliverableMissing, "", ""},
		{"two rulings", "DIAGNOSIS\nmixed\nPASS_CURRENT_GATE\nBLOCKED_CURRENT_GATE: tests", errs.ContractViolation, "", ""},
		{"the same ruling twice", "DIAGNOSIS\nx\nPASS_CURRENT_GATE\nPASS_CURRENT_GATE", errs.ContractViolation, "", ""},
		{"a blocked ruling without reason", "DIAGNOSIS\nx\nBLOCKED_CURRENT_GATE:", errs.ContractViolation, "", ""},
		{"a ruling inside a sentence", "DIAGNOSIS\nx\nI would say PASS_CURRENT_GATE here.", errs.ContractViolation, "", ""},
		{"a ruling plus another token in prose", "DIAGNOSIS\nnot REJECTED_SCOPE_EXPANSION but\nPASS_CURRENT_GATE", errs.ContractViolation, "", ""},
		{"a ruling before the diagnosis", "PASS_CURRENT_GATE\nDIAGNOSIS\nx", errs.ContractViolation, "", ""},
	}
	for _, c := range cases {
		name := c.name + " meets the contract"
		if c.code != "" {
			name = c.name + " is " + string(c.code)
		}
		t.Run(name, func(t *testing.T) {
			o, err := Check(ContractAssess, c.answer, nil)
			if c.code != "" {
				if !errs.Has(err, c.code) {
					t.Fatalf("err = %v, want %s", err, c.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.Ruling != c.ruling || o.Reason != c.reason {
				t.Errorf("outcome = %+v", o)
			}
		})
	}
}

func TestCheckPlan(t *testing.T) {
	good := `Here is the plan.

TASK_PLAN
1. Add the limiter middleware
   Files: backend/hub/limit.go, backend/hub/limit_test.go
   Proof: go test ./backend/hub -run Limit passes, and 101 requests in a second get one 429
2. Wire it into the server
   - Files: backend/hub/server.go
   - Proof: curl -i localhost:8080/x shows X-RateLimit-Remaining
`
	cases := []struct {
		name   string
		answer string
		code   errs.Code
		steps  int
	}{
		{"a plan whose steps have files and proofs", good, "", 2},
		{"step headings in Markdown", "## TASK_PLAN\n### Step 1: model\n**Files:** a.go\n**Proof:** go test ./a\n### Step 2 - api\nFile boundary: b.go\nLive proof: curl it", "", 2},
		{"fields on the step line", "TASK_PLAN\n1. Files: a.go\n   Proof: run it", "", 1},
		{"a line starting with a number inside a step", "TASK_PLAN\n1. Limit\n   Files: a.go\n   Proof: run it\n   100 requests per second is the cap", "", 1},
		{"no TASK_PLAN", "1. Do it\nFiles: a\nProof: b", errs.DeliverableMissing, 0},
		{"a TASK_PLAN without steps", "TASK_PLAN\nWe will do things.", errs.DeliverableMissing, 0},
		{"a step without proof", strings.Replace(good, "   - Proof: curl -i localhost:8080/x shows X-RateLimit-Remaining\n", "", 1), errs.ContractViolation, 0},
		{"a step without files", "TASK_PLAN\n1. x\nProof: y", errs.ContractViolation, 0},
		{"a plan that only exists in a code block", "```\nTASK_PLAN\n1. x\nFiles: a\nProof: b\n```", errs.DeliverableMissing, 0},
	}
	for _, c := range cases {
		name := c.name + " meets the contract"
		if c.code != "" {
			name = c.name + " is " + string(c.code)
		}
		t.Run(name, func(t *testing.T) {
			o, err := Check(ContractPlan, c.answer, nil)
			if c.code != "" {
				if !errs.Has(err, c.code) {
					t.Fatalf("err = %v, want %s", err, c.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.PlanSteps != c.steps {
				t.Errorf("steps = %d, want %d", o.PlanSteps, c.steps)
			}
		})
	}
}

func TestCheckCode(t *testing.T) {
	diff := "```diff\n--- a/pager.go\n+++ b/pager.go\n@@ -10,7 +10,7 @@ func page() {\n-\tfor i := 0; i <= n; i++ {\n+\tfor i := 0; i < n; i++ {\n```"
	cases := []struct {
		name   string
		answer string
		zips   []Zip
		code   errs.Code
		diff   bool
		want   string
	}{
		{"a unified diff", diff, nil, "", true, ""},
		{"a zip path in the answer", "Done:\n/mnt/data/project.zip", nil, "", false, "/mnt/data/project.zip"},
		{"a zip found in the conversation", "Done, see above.", []Zip{{Path: "/mnt/data/app.zip"}}, "", false, "/mnt/data/app.zip"},
		{"a verified non-empty zip", "Done.", []Zip{{Path: "/mnt/data/app.zip", Verified: true, Files: 3}}, "", false, "/mnt/data/app.zip"},
		{"a verified empty zip", "Done.", []Zip{{Path: "/mnt/data/app.zip", Verified: true, Files: 0}}, errs.ContractViolation, false, ""},
		{"prose only", "I wrote the code in my head.", nil, errs.DeliverableMissing, false, ""},
		{"a diff without hunks", "--- a/x\n+++ b/x\n", nil, errs.DeliverableMissing, false, ""},
		{"a non-zip sandbox file", "/mnt/data/app.tar.gz", nil, errs.DeliverableMissing, false, ""},
	}
	for _, c := range cases {
		name := c.name + " meets the contract"
		if c.code != "" {
			name = c.name + " is " + string(c.code)
		}
		t.Run(name, func(t *testing.T) {
			o, err := Check(ContractCode, c.answer, c.zips)
			if c.code != "" {
				if !errs.Has(err, c.code) {
					t.Fatalf("err = %v, want %s", err, c.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if o.Diff != c.diff || (c.want != "" && (len(o.Zips) != 1 || o.Zips[0] != c.want)) {
				t.Errorf("outcome = %+v", o)
			}
		})
	}
}

func TestCheckNoneAcceptsAnyAnswerButAnEmptyOne(t *testing.T) {
	if _, err := Check(ContractNone, "anything", nil); err != nil {
		t.Error(err)
	}
	if _, err := Check(ContractNone, "", nil); !errs.Has(err, errs.AnswerEmpty) {
		t.Errorf("err = %v", err)
	}
	if _, err := Check(ContractAll, "x", nil); !errs.Has(err, errs.Internal) {
		t.Errorf("checking all at once: %v", err)
	}
}
