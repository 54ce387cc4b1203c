package prompt

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Template is a user's stored prompt with {{variables}}.
//
// Syntax: {{name}} (spaces inside the braces allowed) is replaced by the
// variable's value; names are letters, digits and "_", not starting with a
// digit. \{{ writes a literal "{{". Anything else that opens with "{{" is an
// error with its line and column.
type Template struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Body        string `json:"body"`
	// Vars declares the variables with defaults and descriptions. When empty,
	// every variable the body uses is required and has no default.
	Vars      []Var     `json:"vars,omitempty"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Var declares a template variable.
type Var struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Default     string `json:"default,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

var (
	templateNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)
	varNameRe      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
)

type segment struct {
	text      string
	variable  string
	line, col int
}

func (s segment) at() string { return fmt.Sprintf("line %d, column %d", s.line, s.col) }

// parseBody splits a template body into text and variable references.
func parseBody(body string) ([]segment, error) {
	var out []segment
	var text strings.Builder
	line, col := 1, 1
	for i := 0; i < len(body); {
		switch {
		case strings.HasPrefix(body[i:], `\{{`):
			text.WriteString("{{")
			i += 3
			col += 3
			continue
		case strings.HasPrefix(body[i:], "{{"):
			end := strings.Index(body[i+2:], "}}")
			if end < 0 {
				return nil, errs.New(errs.TemplateInvalid, "\"{{\" at line %d, column %d is never closed with \"}}\"", line, col).
					WithHint(`close it, or write \{{ for a literal "{{"`)
			}
			raw := body[i+2 : i+2+end]
			name := strings.TrimSpace(raw)
			if !varNameRe.MatchString(name) {
				return nil, errs.New(errs.TemplateInvalid, "%q at line %d, column %d is not a variable name", "{{"+raw+"}}", line, col).
					WithHint(`use letters, digits and "_" ({{project_name}}), or write \{{ for a literal "{{"`)
			}
			if text.Len() > 0 {
				out = append(out, segment{text: text.String()})
				text.Reset()
			}
			out = append(out, segment{variable: name, line: line, col: col})
			whole := body[i : i+4+end]
			line += strings.Count(whole, "\n")
			if k := strings.LastIndexByte(whole, '\n'); k >= 0 {
				col = len(whole) - k
			} else {
				col += len(whole)
			}
			i += len(whole)
			continue
		}
		c := body[i]
		text.WriteByte(c)
		i++
		if c == '\n' {
			line, col = line+1, 1
		} else if c < 0x80 || c >= 0xc0 {
			col++ // count runes, not continuation bytes
		}
	}
	if text.Len() > 0 {
		out = append(out, segment{text: text.String()})
	}
	return out, nil
}

// Variables returns the names the body uses, in first-use order.
func (t Template) Variables() ([]string, error) {
	segs, err := parseBody(t.Body)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range segs {
		if s.variable != "" && !seen[s.variable] {
			seen[s.variable] = true
			out = append(out, s.variable)
		}
	}
	return out, nil
}

// Validate checks the name, the body's syntax and the declarations: each
// used variable declared (when any are), each declared one used, no name
// twice. Errors are TemplateInvalid envelopes that name the variable and
// where it is.
func (t Template) Validate() error {
	if !templateNameRe.MatchString(t.Name) {
		return errs.New(errs.TemplateInvalid, "template name %q is not valid", t.Name).
			WithHint("use lower-case letters, digits, '.', '_' and '-', up to 64 characters")
	}
	if strings.TrimSpace(t.Body) == "" {
		return errs.New(errs.TemplateInvalid, "template %q has an empty body", t.Name)
	}
	segs, err := parseBody(t.Body)
	if err != nil {
		return err
	}
	if len(t.Vars) == 0 {
		return nil
	}
	declared := map[string]bool{}
	for _, v := range t.Vars {
		if !varNameRe.MatchString(v.Name) {
			return errs.New(errs.TemplateInvalid, "declared variable %q of template %q is not a valid name", v.Name, t.Name)
		}
		if declared[v.Name] {
			return errs.New(errs.TemplateInvalid, "variable %q is declared twice in template %q", v.Name, t.Name)
		}
		declared[v.Name] = true
	}
	used := map[string]bool{}
	for _, s := range segs {
		if s.variable == "" {
			continue
		}
		if !declared[s.variable] {
			return errs.New(errs.TemplateInvalid, "unknown variable %q at %s of template %q", s.variable, s.at(), t.Name).
				WithHint("declare it, or fix its spelling; declared: %s", strings.Join(sortedKeys(declared), ", "))
		}
		used[s.variable] = true
	}
	for _, v := range t.Vars {
		if !used[v.Name] {
			return errs.New(errs.TemplateInvalid, "variable %q is declared but template %q never uses it", v.Name, t.Name).
				WithHint("use it as {{%s}} in the body, or remove the declaration", v.Name)
		}
	}
	return nil
}

// Render fills the template with values. A value for a variable the
// template does not use, and a required variable with neither value nor
// default, are TemplateInvalid envelopes naming the variable (and, for a
// missing one, where it is first used).
func (t Template) Render(values map[string]string) (string, error) {
	if err := t.Validate(); err != nil {
		return "", err
	}
	segs, _ := parseBody(t.Body)
	decl := map[string]Var{}
	for _, v := range t.Vars {
		decl[v.Name] = v
	}
	used := map[string]bool{}
	for _, s := range segs {
		if s.variable != "" {
			used[s.variable] = true
		}
	}
	for _, k := range sortedKeys(boolKeys(values)) {
		if !used[k] {
			return "", errs.New(errs.TemplateInvalid, "unknown variable %q: template %q uses %s", k, t.Name, orNothing(sortedKeys(used))).
				WithEvidence("variable", k)
		}
	}
	var b strings.Builder
	for _, s := range segs {
		if s.variable == "" {
			b.WriteString(s.text)
			continue
		}
		val, ok := values[s.variable]
		if !ok {
			d, declared := decl[s.variable]
			switch {
			case declared && d.Default != "":
				val = d.Default
			case declared && !d.Required:
				val = ""
			default:
				return "", errs.New(errs.TemplateInvalid, "variable %q (first used at %s of template %q) has no value", s.variable, s.at(), t.Name).
					WithHint("pass a value for it, e.g. --var %s=…", s.variable).WithEvidence("variable", s.variable)
			}
		}
		b.WriteString(val)
	}
	return b.String(), nil
}

func boolKeys(m map[string]string) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func orNothing(names []string) string {
	if len(names) == 0 {
		return "no variables"
	}
	return strings.Join(names, ", ")
}
