package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt/templates"
)

func TestTemplatesCommand(t *testing.T) {
	t.Parallel()
	dd := t.TempDir()
	d := "--data-dir=" + dd
	body := filepath.Join(t.TempDir(), "greet.txt")
	if err := os.WriteFile(body, []byte("Say hello to {{name}} in {{lang}}.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	undeclared := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(undeclared, []byte("Say hello to {{name}} from {{city}}.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An unreachable browser: a command that got as far as the browser
	// would fail with a browser error, not bad input.
	noBrowser := "--browser-url=ws://127.0.0.1:1/devtools/browser/none"

	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings
		stderr []string
	}{
		{"save stores a template with its declared variables", []string{"templates", "save", "greet", "--file", body, "--vars", "name,lang", "--description", "a greeting", d},
			0, []string{"saved template greet (variables: name, lang)"}, nil},
		{"list shows the built-ins and the saved template", []string{"templates", "list", d},
			0, []string{"review", "built-in", "greet", "saved", "a greeting"}, nil},
		{"show prints the body and the variables", []string{"templates", "show", "greet", d},
			0, []string{"greet (saved)", "variables:   name, lang", "Say hello to {{name}} in {{lang}}."}, nil},
		{"save refuses a body with an undeclared variable, naming it", []string{"templates", "save", "bad", "--file", undeclared, "--vars", "name", d},
			exitOf(errs.TemplateInvalid), nil, []string{`"city"`}},
		{"save without --file is bad input", []string{"templates", "save", "x", d},
			2, nil, []string{"--file"}},
		{"a built-in template cannot be deleted", []string{"templates", "delete", "review", d},
			2, nil, []string{"built-in"}},
		{"show of an unknown template is not found and names the list command", []string{"templates", "show", "nope", d},
			exitOf(errs.TemplateNotFound), nil, []string{"nope", "ferry templates list"}},
		{"ask with a template missing a variable is bad input naming it, before the browser", []string{"ask", "--site", "chatgpt", "--template", "greet", "--var", "name=Ada", noBrowser, d},
			2, nil, []string{`"lang"`, "--var lang="}},
		{"code with a template missing a variable is bad input naming it, before the browser", []string{"code", "--site", "chatgpt", "--template", "greet", "--var", "lang=Go", noBrowser, d},
			2, nil, []string{`"name"`, "--var name="}},
		{"ask with a template and a prompt is bad input", []string{"ask", "--site", "chatgpt", "--template", "greet", "hello", noBrowser, d},
			2, nil, []string{"not both"}},
		{"a --var without a template is bad input", []string{"code", "--site", "chatgpt", "--var", "a=b", "task", noBrowser, d},
			2, nil, []string{"--template"}},
		{"a --var that is not NAME=VALUE is bad input", []string{"ask", "--site", "chatgpt", "--template", "greet", "--var", "novalue", noBrowser, d},
			2, nil, []string{"NAME=VALUE"}},
		{"delete removes a saved template", []string{"templates", "delete", "greet", d},
			0, []string{"deleted template greet"}, nil},
		{"a deleted template is gone", []string{"templates", "show", "greet", d},
			exitOf(errs.TemplateNotFound), nil, []string{"greet"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ferry(t, nil, c.args...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", r.code, c.code, r.stdout, r.stderr)
			}
			for _, s := range c.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Fatalf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Fatalf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}

	t.Run("the JSON forms round-trip a template", func(t *testing.T) {
		if r := ferry(t, nil, "templates", "save", "greet", "--file", body, "--vars", "name,lang", "--json", d); r.code != 0 {
			t.Fatalf("save --json: exit %d %s", r.code, r.stderr)
		}
		r := ferry(t, nil, "templates", "list", "--json", d)
		var list []templates.Info
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil {
			t.Fatalf("list --json: exit %d %s", r.code, r.stdout)
		}
		var builtins, mine int
		for _, x := range list {
			switch {
			case x.BuiltIn:
				builtins++
			case x.Name == "greet" && strings.Join(x.Variables, ",") == "name,lang" && !x.UpdatedAt.IsZero():
				mine++
			}
		}
		if builtins == 0 || mine != 1 {
			t.Fatalf("list --json: %d built-ins, %d greet: %s", builtins, mine, r.stdout)
		}
		r = ferry(t, nil, "templates", "show", "greet", "--json", d)
		var one templates.Info
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &one) != nil || one.Body != "Say hello to {{name}} in {{lang}}.\n" {
			t.Fatalf("show --json: exit %d %s", r.code, r.stdout)
		}
		r = ferry(t, nil, "templates", "delete", "review", "--json", d)
		var env struct {
			Error *errs.Envelope `json:"error"`
		}
		if r.code != 2 || json.Unmarshal([]byte(r.stdout), &env) != nil || env.Error == nil || env.Error.Code != errs.BadInput {
			t.Fatalf("delete review --json: exit %d %s", r.code, r.stdout)
		}
	})
}

// TestEverythingFerryWritesIsPrivate: the store's tables and logs, the
// settings and every directory under the data directory are the user's
// alone (the binary sets a 077 umask), whatever their writers ask for.
func TestEverythingFerryWritesIsPrivate(t *testing.T) {
	t.Parallel()
	d := t.TempDir()
	if err := os.Chmod(d, 0o700); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(d, "data")
	body := filepath.Join(d, "body.txt")
	if err := os.WriteFile(body, []byte("Say hello to {{name}}."), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := ferry(t, nil, "templates", "save", "greet", "--file", body, "--vars", "name", "--data-dir", data); r.code != 0 {
		t.Fatalf("templates save: exit %d %s", r.code, r.stderr)
	}
	if r := ferry(t, nil, "settings", "reset", "--data-dir", data); r.code != 0 {
		t.Fatalf("settings reset: exit %d %s", r.code, r.stderr)
	}
	var n int
	err := filepath.WalkDir(data, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := de.Info()
		if err != nil {
			return err
		}
		n++
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %04o: other users can access it", path, fi.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("only %d entries under the data directory: the store was not written", n)
	}
}
