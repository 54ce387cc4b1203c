package prompt

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// The rulings of the assess contract.
const (
	RulingPass     = "PASS_CURRENT_GATE"
	RulingBlocked  = "BLOCKED_CURRENT_GATE"
	RulingRejected = "REJECTED_SCOPE_EXPANSION"
)

// Zip is a sandbox zip known for an answer: found in the conversation, and
// once retrieved, verified with its file count.
type Zip struct {
	Path     string `json:"path"`
	Verified bool   `json:"verified"`
	Files    int    `json:"files"`
}

// Outcome is what a checker found in an answer that meets its contract.
type Outcome = record.Outcome

// Check judges answer against one contract (not ContractAll: check each of
// its steps). zips are the sandbox zips known for the answer; paths the
// answer text names are added. It returns the outcome, or an envelope:
// AnswerEmpty for a blank answer, DeliverableMissing when the contract's
// deliverable is absent, ContractViolation when it is there but malformed;
// the evidence says what was seen.
func Check(c Contract, answer string, zips []Zip) (*Outcome, error) {
	if strings.TrimSpace(answer) == "" {
		return nil, errs.New(errs.AnswerEmpty, "the answer is empty")
	}
	switch c {
	case ContractNone:
		return &Outcome{Contract: c}, nil
	case ContractAssess:
		return checkAssess(answer)
	case ContractPlan:
		return checkPlan(answer)
	case ContractCode:
		return checkCode(answer, zips)
	}
	return nil, errs.New(errs.Internal, "check contract %q: check each step of a sequence on its own", c)
}

// proseLines returns the answer's lines outside fenced code blocks, with
// their 1-based numbers.
func proseLines(answer string) (lines []string, numbers []int) {
	fence := ""
	for i, l := range strings.Split(strings.ReplaceAll(answer, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		lines = append(lines, l)
		numbers = append(numbers, i+1)
	}
	return lines, numbers
}

// bare strips Markdown decoration around a line: headings, quotes, list
// bullets, emphasis and code spans.
func bare(l string) string {
	return strings.Trim(strings.TrimSpace(l), "#>*_`- \t")
}

var labelPrefix = regexp.MustCompile(`(?i)^ruling\s*[*_` + "`" + `]*\s*:?\s*[*_` + "`" + `]*\s*`)

func checkAssess(answer string) (*Outcome, error) {
	lines, nums := proseLines(answer)
	diag := -1
	var diagBody bool
	type ruling struct {
		token, reason, line string
		n, idx              int
	}
	var rulings []ruling
	var mentions []string
	for i, l := range lines {
		b := bare(l)
		if diag < 0 && strings.HasPrefix(strings.ToUpper(b), "DIAGNOSIS") {
			diag = i
			rest := strings.Trim(strings.TrimSpace(b[len("DIAGNOSIS"):]), ":*_ ")
			diagBody = rest != ""
			continue
		}
		r := bare(labelPrefix.ReplaceAllString(b, ""))
		switch {
		case r == RulingPass || r == RulingRejected:
			rulings = append(rulings, ruling{token: r, line: l, n: nums[i], idx: i})
		case strings.HasPrefix(r, RulingBlocked):
			reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r[len(RulingBlocked):]), ":"))
			rulings = append(rulings, ruling{token: RulingBlocked, reason: reason, line: l, n: nums[i], idx: i})
		default:
			for _, tok := range []string{RulingPass, RulingBlocked, RulingRejected} {
				if strings.Contains(l, tok) {
					mentions = append(mentions, fmt.Sprintf("line %d: %s", nums[i], strings.TrimSpace(l)))
					break
				}
			}
			if diag >= 0 && len(rulings) == 0 && b != "" && !strings.EqualFold(strings.Trim(b, ":"), "ruling") {
				diagBody = true
			}
		}
	}
	switch {
	case diag < 0:
		return nil, errs.New(errs.DeliverableMissing, "the assess answer has no DIAGNOSIS section").
			WithEvidence("expected", "a line DIAGNOSIS followed by the findings")
	case len(rulings) > 0 && rulings[0].idx < diag:
		return nil, errs.New(errs.ContractViolation, "the ruling (line %d) comes before the DIAGNOSIS", rulings[0].n)
	case !diagBody:
		return nil, errs.New(errs.DeliverableMissing, "the DIAGNOSIS section of the assess answer is empty")
	case len(rulings) == 0 && len(mentions) > 0:
		return nil, errs.New(errs.ContractViolation, "the ruling is not written alone on its own line").
			WithEvidence("seen", strings.Join(mentions, " | "))
	case len(rulings) == 0:
		return nil, errs.New(errs.DeliverableMissing, "the assess answer has no ruling (%s, %s:<reason> or %s)", RulingPass, RulingBlocked, RulingRejected)
	case len(rulings) > 1:
		var seen []string
		for _, r := range rulings {
			seen = append(seen, fmt.Sprintf("line %d: %s", r.n, strings.TrimSpace(r.line)))
		}
		return nil, errs.New(errs.ContractViolation, "the assess answer has %d rulings; the contract allows exactly one", len(rulings)).
			WithEvidence("rulings", strings.Join(seen, " | "))
	}
	r := rulings[0]
	if r.token == RulingBlocked && r.reason == "" {
		return nil, errs.New(errs.ContractViolation, "%s has no reason (line %d)", RulingBlocked, r.n).
			WithEvidence("line", strings.TrimSpace(r.line))
	}
	for _, m := range mentions {
		for _, tok := range []string{RulingPass, RulingBlocked, RulingRejected} {
			if tok != r.token && strings.Contains(m, tok) {
				return nil, errs.New(errs.ContractViolation, "the answer rules %s but also names %s", r.token, tok).
					WithEvidence("seen", m)
			}
		}
	}
	return &Outcome{Contract: ContractAssess, Ruling: r.token, Reason: r.reason}, nil
}

var (
	stepRe  = regexp.MustCompile(`(?i)^(?:step\s+(\d{1,3})\b\s*[.):–—-]?|(\d{1,3})[.)])(?:\s+|$)`)
	filesRe = regexp.MustCompile(`(?i)^(?:files?|file boundary)\s*[*_]*\s*:\s*[*_]*\s*(\S.*)$`)
	proofRe = regexp.MustCompile(`(?i)^(?:live\s+)?proof\s*[*_]*\s*:\s*[*_]*\s*(\S.*)$`)
)

func checkPlan(answer string) (*Outcome, error) {
	lines, nums := proseLines(answer)
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.ToUpper(bare(l)), "TASK_PLAN") {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, errs.New(errs.DeliverableMissing, "the plan answer has no TASK_PLAN section")
	}
	type step struct {
		label        string
		n            int
		files, proof bool
	}
	var steps []*step
	for i := start + 1; i < len(lines); i++ {
		b := strings.TrimLeft(strings.TrimSpace(lines[i]), "#*_ ")
		indented := len(lines[i])-len(strings.TrimLeft(lines[i], " \t")) >= 2
		if m := stepRe.FindStringSubmatchIndex(b); m != nil && !indented {
			var label string
			if m[2] >= 0 {
				label = b[m[2]:m[3]]
			} else {
				label = b[m[4]:m[5]]
			}
			steps = append(steps, &step{label: label, n: nums[i]})
			// The step's first line may hold a field ("1. Files: …").
			b = b[m[1]:]
		}
		if len(steps) == 0 {
			continue
		}
		cur := steps[len(steps)-1]
		f := bare(b)
		if filesRe.MatchString(f) {
			cur.files = true
		}
		if proofRe.MatchString(f) {
			cur.proof = true
		}
	}
	if len(steps) == 0 {
		return nil, errs.New(errs.DeliverableMissing, "the TASK_PLAN has no numbered steps")
	}
	for _, s := range steps {
		var missing []string
		if !s.files {
			missing = append(missing, "a Files: line (its file boundary)")
		}
		if !s.proof {
			missing = append(missing, "a Proof: line (its live proof)")
		}
		if len(missing) > 0 {
			return nil, errs.New(errs.ContractViolation, "step %s of the TASK_PLAN (line %d) lacks %s", s.label, s.n, strings.Join(missing, " and ")).
				WithEvidence("step", s.label)
		}
	}
	return &Outcome{Contract: ContractPlan, PlanSteps: len(steps)}, nil
}

var hunkRe = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@`)

// hasUnifiedDiff looks for a file header pair (--- then +++) followed by a
// hunk header, inside or outside a fenced block.
func hasUnifiedDiff(answer string) bool {
	lines := strings.Split(strings.ReplaceAll(answer, "\r\n", "\n"), "\n")
	for i := 0; i+2 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "--- ") || !strings.HasPrefix(lines[i+1], "+++ ") {
			continue
		}
		for _, l := range lines[i+2:] {
			if hunkRe.MatchString(l) {
				return true
			}
			if strings.HasPrefix(l, "--- ") {
				break
			}
		}
	}
	return false
}

func checkCode(answer string, zips []Zip) (*Outcome, error) {
	known := map[string]Zip{}
	var order []string
	for _, z := range zips {
		if _, ok := known[z.Path]; !ok {
			order = append(order, z.Path)
		}
		known[z.Path] = z
	}
	for _, f := range artifact.ScanText(answer, "").Zips {
		if _, ok := known[f.Path]; !ok {
			known[f.Path] = Zip{Path: f.Path}
			order = append(order, f.Path)
		}
	}
	var good, empty []string
	for _, p := range order {
		if z := known[p]; z.Verified && z.Files == 0 {
			empty = append(empty, p)
		} else {
			good = append(good, p)
		}
	}
	diff := hasUnifiedDiff(answer)
	switch {
	case len(good) > 0 || diff:
		return &Outcome{Contract: ContractCode, Diff: diff, Zips: good}, nil
	case len(empty) > 0:
		return nil, errs.New(errs.ContractViolation, "the delivered zip holds no file").
			WithEvidence("zips", strings.Join(empty, ", "))
	}
	return nil, errs.New(errs.DeliverableMissing, "the code answer has neither a unified diff nor a /mnt/data zip")
}
