package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// maxTemplateFile bounds a template body read by `ferry templates save`.
const maxTemplateFile = 256 << 10

func init() {
	register(&command{
		name:  "templates",
		args:  "list | show NAME | save NAME --file F [--description D] [--vars A,B] | delete NAME",
		short: "list, show, save and delete prompt templates with {{variables}}",
		long: `Prompt templates are prompts with {{variables}}, used by ferry ask and ferry code
as --template NAME --var NAME=VALUE (one --var per variable; a missing one is an
error that names it).

list              the built-in templates (marked built-in) and yours
show NAME         one template: its description, variables and body
save NAME --file F [--description D] [--vars A,B]
                  saves (or replaces) your template NAME with the body in F ("-" reads
                  stdin). Every {{variable}} the body uses must be declared with --vars;
                  \{{ writes a literal "{{". Built-in templates cannot be replaced.
delete NAME       deletes your template NAME (built-in ones cannot be deleted)

Templates are stored in the data directory's store. With --json every command
prints JSON.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("file", "", "save: read the template body from this file (- for stdin)")
			fs.String("description", "", "save: a one-line description")
			fs.String("vars", "", "save: the variables the body uses, comma-separated (e.g. project,language)")
		},
		run: runTemplates,
	})
}

// runTemplates is ferry templates, embedded or through a running owner
// alike (openService): the input is read and checked before either is
// reached.
func runTemplates(ctx context.Context, inv *invocation) error {
	if len(inv.args) == 0 {
		return errs.New(errs.BadInput, "ferry templates needs one of list, show, save, delete").WithHint("run `ferry help templates`")
	}
	verb, rest := inv.args[0], inv.args[1:]
	need := map[string]int{"list": 0, "show": 1, "save": 1, "delete": 1}
	n, ok := need[verb]
	if !ok {
		return errs.New(errs.BadInput, "unknown templates command %q", verb).WithHint("use list, show, save or delete")
	}
	if len(rest) != n {
		return errs.New(errs.BadInput, "ferry templates %s takes %d argument(s), got %d", verb, n, len(rest)).WithHint("run `ferry help templates`")
	}
	var toSave service.Template
	if verb == "save" {
		var err error
		if toSave, err = templateToSave(inv, rest[0]); err != nil {
			return err
		}
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	switch verb {
	case "list":
		list, err := svc.ListTemplates(ctx, cliCaller, service.ListTemplatesRequest{})
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(list)
		}
		return termtext.Templates(inv.stdout, list)
	case "show":
		t, err := svc.GetTemplate(ctx, cliCaller, service.TemplateRef{Name: rest[0]})
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(t)
		}
		return termtext.Template(inv.stdout, t)
	case "save":
		t, err := svc.SaveTemplate(ctx, cliCaller, toSave)
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(t)
		}
		termtext.TemplateSaved(inv.stdout, t)
		return nil
	}
	if _, err := svc.DeleteTemplate(ctx, cliCaller, service.TemplateRef{Name: rest[0]}); err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(map[string]any{"deleted": rest[0]})
	}
	fmt.Fprintf(inv.stdout, "deleted template %s\n", rest[0])
	return nil
}

// templateToSave reads `ferry templates save NAME`'s body and flags.
func templateToSave(inv *invocation, name string) (service.Template, error) {
	file := inv.flag("file").(string)
	if file == "" {
		return service.Template{}, errs.New(errs.BadInput, "ferry templates save needs --file F with the template body").
			WithHint("e.g. `ferry templates save greet --file greet.txt --vars name`; --file - reads stdin")
	}
	var r io.Reader
	if file == "-" {
		r = Stdin
	} else {
		f, err := os.Open(file)
		if err != nil {
			return service.Template{}, errs.Wrap(err, errs.BadInput, "read the template file %s: %v", file, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxTemplateFile+1))
	if err != nil {
		return service.Template{}, errs.Wrap(err, errs.BadInput, "read the template file %s: %v", file, err)
	}
	if len(b) > maxTemplateFile {
		return service.Template{}, errs.New(errs.BadInput, "the template file %s is over %d KiB", file, maxTemplateFile>>10)
	}
	vars := []string{}
	for _, v := range strings.Split(inv.flag("vars").(string), ",") {
		if v = strings.TrimSpace(v); v != "" {
			vars = append(vars, v)
		}
	}
	return service.Template{Name: name, Description: inv.flag("description").(string), Body: string(b), Variables: vars}, nil
}

// varFlag is the repeatable --var NAME=VALUE.
type varFlag struct{ m map[string]string }

func (v *varFlag) String() string { return "" }

func (v *varFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("--var %q is not NAME=VALUE", s)
	}
	if _, dup := v.m[name]; dup {
		return fmt.Errorf("--var %s is given twice", name)
	}
	if v.m == nil {
		v.m = map[string]string{}
	}
	v.m[name] = value
	return nil
}

func (v *varFlag) Get() any { return v.m }

// registerTemplateFlags defines --template and --var (ask, code).
func registerTemplateFlags(fs *flag.FlagSet) {
	fs.String("template", "", "render this template (see ferry templates) as the prompt")
	fs.Var(&varFlag{}, "var", "a template variable as NAME=VALUE (repeatable)")
}

// promptOrTemplate is the prompt of askPrompt, or with --template the
// template's name and its variables (rendered by the core, which holds
// the saved templates): exactly one of them.
func promptOrTemplate(inv *invocation) (text, template string, vars map[string]string, err error) {
	template = strings.TrimSpace(inv.flag("template").(string))
	vars, _ = inv.flag("var").(map[string]string)
	if template == "" {
		if len(vars) > 0 {
			return "", "", nil, errs.New(errs.BadInput, "--var needs --template").WithHint("add --template NAME, or drop the --var flags")
		}
		text, err = askPrompt(inv)
		return text, "", nil, err
	}
	if inv.flag("prompt").(string) != "" || inv.flag("prompt-file").(string) != "" || len(inv.args) > 0 {
		return "", "", nil, errs.New(errs.BadInput, "give the prompt or --template, not both").
			WithHint("drop the prompt text, or drop --template")
	}
	return "", template, vars, nil
}
