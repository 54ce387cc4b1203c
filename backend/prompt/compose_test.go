package prompt

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("read golden file (run go test -update once): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file; run `go test ./backend/prompt -update` if the change is intended\n--- got ---\n%s", p, got)
	}
}

func TestComposeMatchesTheGoldenPrompts(t *testing.T) {
	src := &SourceProvenance{RepoURL: "https://github.com/acme/app.git", Commit: "0123456789abcdef0123456789abcdef01234567", Paths: []string{"backend/api", "go.mod"}}
	cases := []struct {
		golden string
		req    Request
	}{
		{"code_single_zip", Request{Task: "Build a CLI that prints the weather.", Zip: true}},
		{"code_single_named_zip", Request{Task: "Build a todo app.", Zip: true, ZipName: "todo-app.zip"}},
		{"code_multi_zip", Request{Task: "Build the backend and the frontend.", Zip: true, MultiZip: true}},
		{"code_multi_zip_parts", Request{Task: "Build the backend and the frontend.", Zip: true, MultiZip: true, Parts: []string{"backend", "frontend"}}},
		{"code_diff", Request{Task: "Fix the off-by-one in pager.go.", Source: src}},
		{"assess_goal_research_source", Request{Task: "Is the API ready for the v2 gate?", Contract: ContractAssess, Goal: "Ship API v2 without breaking v1 clients.", Research: true, Source: src}},
		{"plan", Request{Task: "Add rate limiting.", Contract: ContractPlan, Authorized: true}},
		{"all_zip_goal", Request{Task: "Add rate limiting.", Contract: ContractAll, Authorized: true, Zip: true, Goal: "Rate-limit the public API."}},
		{"none_zip", Request{Task: "Make a small demo.", Contract: ContractNone, Zip: true}},
	}
	for _, c := range cases {
		t.Run("the "+strings.ReplaceAll(c.golden, "_", " ")+" prompt matches its golden file", func(t *testing.T) {
			steps, err := Compose(c.req)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, s := range steps {
				fmt.Fprintf(&b, "===== step %d: %s =====\n%s", i+1, s.Contract, s.Prompt)
			}
			golden(t, c.golden, b.String())
		})
	}
}

func TestComposeAllRunsAssessPlanCodeInOrder(t *testing.T) {
	steps, err := Compose(Request{Task: "x", Contract: ContractAll, Authorized: true, Zip: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range steps {
		got = append(got, string(s.Contract))
	}
	if strings.Join(got, ",") != "assess,plan,code" {
		t.Fatalf("steps = %v", got)
	}
	if strings.Contains(steps[0].Prompt, "/mnt/data/") || strings.Contains(steps[1].Prompt, "/mnt/data/") {
		t.Error("the assess or plan step asks for a zip")
	}
	if !strings.Contains(steps[2].Prompt, "\n/mnt/data/project.zip\n") {
		t.Error("the code step does not ask for the zip path on its own line")
	}
}

func TestComposeRefusesBadRequests(t *testing.T) {
	cases := []struct {
		name string
		req  Request
		code errs.Code
	}{
		{"plan without authorization", Request{Task: "x", Contract: ContractPlan}, errs.AuthorizationRequired},
		{"all without authorization", Request{Task: "x", Contract: ContractAll}, errs.AuthorizationRequired},
		{"an empty task", Request{Task: "  \n"}, errs.BadInput},
		{"an oversized task", Request{Task: strings.Repeat("x", MaxTaskBytes+1)}, errs.PromptTooLarge},
		{"an unknown contract", Request{Task: "x", Contract: "review"}, errs.BadInput},
		{"a zip name with a slash", Request{Task: "x", Zip: true, ZipName: "../x.zip"}, errs.BadInput},
		{"a zip name without .zip", Request{Task: "x", Zip: true, ZipName: "x.tar"}, errs.BadInput},
		{"a part name with a space", Request{Task: "x", Zip: true, MultiZip: true, Parts: []string{"my part"}}, errs.BadInput},
		{"a part given twice", Request{Task: "x", Zip: true, MultiZip: true, Parts: []string{"api", "API"}}, errs.BadInput},
		{"parts without multi-zip", Request{Task: "x", Zip: true, Parts: []string{"api"}}, errs.BadInput},
	}
	for _, c := range cases {
		t.Run(c.name+" is "+string(c.code), func(t *testing.T) {
			if _, err := Compose(c.req); !errs.Has(err, c.code) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	_, err := Compose(Request{Task: "x", Contract: ContractAll})
	if e := errs.From(err); e.Evidence["flag"] != AuthorizationFlag || !strings.Contains(e.Message, AuthorizationFlag) {
		t.Errorf("the authorization error does not name the flag: %+v", e)
	}
}
