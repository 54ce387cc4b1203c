package prompt

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestCompliance(t *testing.T) {
	cases := []struct {
		name     string
		answer   string
		multi    bool
		expected string
		want     []WarningKind
	}{
		{"a plain path on its own line", "Done.\n\n/mnt/data/project.zip\n", false, "/mnt/data/project.zip", nil},
		{"a plain path line beside a link", "[zip](sandbox:/mnt/data/project.zip)\n/mnt/data/project.zip", false, "", nil},
		{"a bracket-wrapped link only", "Download [project.zip](sandbox:/mnt/data/project.zip)", false, "", []WarningKind{WarnBracketLink}},
		{"a path inside a sentence", "I saved /mnt/data/project.zip for you.", false, "", []WarningKind{WarnNotOwnLine}},
		{"a path in backticks", "`/mnt/data/project.zip`", false, "", []WarningKind{WarnNotOwnLine}},
		{"two zips when one was asked for", "/mnt/data/a.zip\n/mnt/data/b.zip", false, "", []WarningKind{WarnExtraZip}},
		{"two zips in multi mode", "/mnt/data/a.zip\n/mnt/data/b.zip", true, "", nil},
		{"another name than asked", "/mnt/data/app.zip", false, "/mnt/data/project.zip", []WarningKind{WarnNamedWrong}},
		{"no zip at all", "nothing", false, "/mnt/data/project.zip", nil},
	}
	for _, c := range cases {
		t.Run(c.name+" gives "+strings.Trim(strings.Join(kinds(Compliance(c.answer, c.multi, c.expected)), ","), ",")+" warnings", func(t *testing.T) {
			got := kinds(Compliance(c.answer, c.multi, c.expected))
			if strings.Join(got, ",") != strings.Join(kindStrings(c.want), ",") {
				t.Errorf("warnings = %v, want %v", got, c.want)
			}
		})
	}
	w := Compliance("intro\nsee [x](sandbox:/mnt/data/x.zip)", false, "")
	if len(w) != 1 || w[0].Line != 2 || !strings.Contains(w[0].Message, "/mnt/data/x.zip") {
		t.Errorf("warning does not locate the path: %+v", w)
	}
}

func kinds(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, string(w.Kind))
	}
	return out
}

func kindStrings(ks []WarningKind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, string(k))
	}
	return out
}

func TestDriveStopsAtTheFirstMissingDeliverable(t *testing.T) {
	steps, err := Compose(Request{Task: "x", Contract: ContractAll, Authorized: true, Zip: true})
	if err != nil {
		t.Fatal(err)
	}
	answers := map[Contract]string{
		ContractAssess: "DIAGNOSIS\nfine\nPASS_CURRENT_GATE",
		ContractPlan:   "I would rather just code it.",
		ContractCode:   "/mnt/data/project.zip",
	}
	var sent []Contract
	res, err := Drive(context.Background(), steps, func(_ context.Context, s Step) (Answer, error) {
		sent = append(sent, s.Contract)
		return Answer{Text: answers[s.Contract]}, nil
	})
	if !errs.Has(err, errs.DeliverableMissing) {
		t.Fatalf("err = %v", err)
	}
	if len(sent) != 2 || len(res) != 2 || res[0].Outcome.Ruling != RulingPass {
		t.Errorf("sent %v, results %+v", sent, res)
	}

	answers[ContractPlan] = "TASK_PLAN\n1. do\nFiles: a.go\nProof: go test"
	sent = nil
	res, err = Drive(context.Background(), steps, func(_ context.Context, s Step) (Answer, error) {
		sent = append(sent, s.Contract)
		return Answer{Text: answers[s.Contract]}, nil
	})
	if err != nil || len(res) != 3 || res[2].Outcome.Zips[0] != "/mnt/data/project.zip" {
		t.Fatalf("a complete run: err %v, results %+v", err, res)
	}
}

func TestDriveStopsAfterARulingThatIsNotPass(t *testing.T) {
	steps, _ := Compose(Request{Task: "x", Contract: ContractAll, Authorized: true})
	var sent int
	res, err := Drive(context.Background(), steps, func(context.Context, Step) (Answer, error) {
		sent++
		return Answer{Text: "DIAGNOSIS\nno tests\nBLOCKED_CURRENT_GATE: add tests first"}, nil
	})
	if err != nil || sent != 1 || res[0].Outcome.Reason != "add tests first" {
		t.Fatalf("err %v, sent %d, results %+v", err, sent, res)
	}
	boom := errors.New("tab crashed")
	if _, err := Drive(context.Background(), steps, func(context.Context, Step) (Answer, error) { return Answer{}, boom }); !errors.Is(err, boom) {
		t.Errorf("ask error not returned: %v", err)
	}
}
