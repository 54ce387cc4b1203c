package prompt

import (
	"embed"
	"regexp"
	"strings"
	"text/template"

	"github.com/ferrydesk/ferry/backend/errs"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

var builtin = template.Must(template.New("").Option("missingkey=error").ParseFS(templateFS, "templates/*.tmpl"))

// DefaultZipName is the single zip's name when the request names none.
const DefaultZipName = "project.zip"

// MaxTaskBytes bounds the task text: the composer reads back what it typed,
// and very long prompts come back truncated.
const MaxTaskBytes = 200_000

var (
	zipNameRe  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.zip$`)
	partNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
)

// Request is what a code-mode prompt is composed from.
type Request struct {
	Task       string   // the user's request; required
	Contract   Contract // "" means ContractCode
	Authorized bool     // AuthorizationFlag was given
	// Zip asks for delivery as sandbox zips (code mode). Without it the code
	// contract asks for a unified diff.
	Zip      bool
	MultiZip bool     // one named zip per logical part instead of one zip
	ZipName  string   // the single zip's name; DefaultZipName when ""
	Parts    []string // optional fixed part names for MultiZip
	Goal     string   // turns on the GOAL LOCK preamble and closing reminder
	Research bool     // adds the research directive
	Source   *SourceProvenance
}

// Step is one message of a run: the contract it must meet and its text.
type Step struct {
	Contract Contract `json:"contract"`
	Prompt   string   `json:"prompt"`
}

type stepData struct {
	Request
	Contract     Contract
	Index, Count int
	Zip, Multi   bool
	Path, Stem   string
}

// Compose renders the request into its ordered steps (one, or three for
// ContractAll). Errors: AuthorizationRequired for plan/all without
// Authorized; BadInput for an empty or oversized task, an unknown contract,
// a bad zip or part name; TemplateInvalid if a built-in template fails.
func Compose(req Request) ([]Step, error) {
	if req.Contract == "" {
		req.Contract = ContractCode
	}
	c, err := ParseContract(string(req.Contract))
	if err != nil {
		return nil, err
	}
	req.Contract = c
	if err := Authorize(c, req.Authorized); err != nil {
		return nil, err
	}
	req.Task = strings.TrimSpace(req.Task)
	req.Goal = strings.TrimSpace(req.Goal)
	switch {
	case req.Task == "":
		return nil, errs.New(errs.BadInput, "the prompt is empty").WithHint("pass --prompt TEXT or --prompt-file PATH")
	case len(req.Task) > MaxTaskBytes:
		return nil, errs.New(errs.PromptTooLarge, "the prompt is %d bytes, over the limit of %d", len(req.Task), MaxTaskBytes)
	}
	if req.ZipName == "" {
		req.ZipName = DefaultZipName
	}
	if !zipNameRe.MatchString(req.ZipName) {
		return nil, errs.New(errs.BadInput, "zip name %q is not a plain file name ending in .zip", req.ZipName).
			WithHint("use letters, digits, '.', '_' and '-', e.g. project.zip")
	}
	seen := map[string]bool{}
	for _, p := range req.Parts {
		if !partNameRe.MatchString(p) {
			return nil, errs.New(errs.BadInput, "part name %q is not a plain name", p).WithHint("use letters, digits, '_' and '-', e.g. backend")
		}
		if seen[strings.ToLower(p)] {
			return nil, errs.New(errs.BadInput, "part name %q is given twice", p)
		}
		seen[strings.ToLower(p)] = true
	}
	if len(req.Parts) > 0 && !req.MultiZip {
		return nil, errs.New(errs.BadInput, "part names need the multi-zip delivery").WithHint("add --multi-zip")
	}
	steps := c.Steps()
	out := make([]Step, 0, len(steps))
	for i, sc := range steps {
		d := stepData{
			Request: req, Contract: sc, Index: i + 1, Count: len(steps),
			Zip:   req.Zip && (sc == ContractCode || sc == ContractNone),
			Multi: req.MultiZip,
			Path:  "/mnt/data/" + req.ZipName, Stem: strings.TrimSuffix(req.ZipName, ".zip"),
		}
		var b strings.Builder
		if err := builtin.ExecuteTemplate(&b, "prompt", d); err != nil {
			return nil, errs.Wrap(err, errs.TemplateInvalid, "render the %s prompt: %v", sc, err)
		}
		out = append(out, Step{Contract: sc, Prompt: strings.TrimSpace(b.String()) + "\n"})
	}
	return out, nil
}
