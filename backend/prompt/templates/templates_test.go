package templates

import (
	"context"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/store"
)

func TestTemplates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	top := t // the store outlives the subtests
	st := openStore(top, dir)
	repo := New(func() *store.Store { return st })
	greet := Info{Name: "greet", Description: "a greeting", Body: "Say hello to {{name}} in {{ lang }}.", Variables: []string{"name", "lang"}}

	t.Run("the built-in templates are listed first, marked, and are valid", func(t *testing.T) {
		list, err := repo.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		builtins := prompt.BuiltinTemplates()
		if len(list) != len(builtins) || len(list) == 0 {
			t.Fatalf("list %d templates, want the %d built-ins", len(list), len(builtins))
		}
		for i, b := range builtins {
			if !list[i].BuiltIn || list[i].Name != b.Name || len(list[i].Variables) == 0 {
				t.Fatalf("entry %d = %+v, want built-in %s with variables", i, list[i], b.Name)
			}
			if err := validateDeclared(promptTemplate(list[i])); err != nil {
				t.Fatalf("built-in %s is invalid: %v", b.Name, err)
			}
		}
	})

	t.Run("a saved template is stored, listed after the built-ins and read back", func(t *testing.T) {
		saved, err := repo.Save(ctx, greet)
		if err != nil {
			t.Fatal(err)
		}
		if saved.UpdatedAt.IsZero() || saved.BuiltIn {
			t.Fatalf("saved %+v", saved)
		}
		got, err := repo.Get(ctx, "greet")
		if err != nil || got.Body != greet.Body || got.Description != "a greeting" || strings.Join(got.Variables, ",") != "name,lang" {
			t.Fatalf("get %+v %v", got, err)
		}
		raw, err := st.Get(store.TemplateKey("greet"))
		if err != nil || !strings.Contains(string(raw), "Say hello") {
			t.Fatalf("template/greet in the store: %q %v", raw, err)
		}
		list, _ := repo.List(ctx)
		if last := list[len(list)-1]; last.Name != "greet" || last.BuiltIn {
			t.Fatalf("last entry %+v, want the user's greet", last)
		}
	})

	t.Run("a saved template survives closing and reopening the store", func(t *testing.T) {
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		st = openStore(top, dir)
		got, err := repo.Get(ctx, "greet")
		if err != nil || got.Body != greet.Body {
			t.Fatalf("after reopen: %+v %v", got, err)
		}
	})

	t.Run("saving again replaces the body", func(t *testing.T) {
		edited := greet
		edited.Body = "Greet {{name}} warmly in {{lang}}."
		if _, err := repo.Save(ctx, edited); err != nil {
			t.Fatal(err)
		}
		if got, _ := repo.Get(ctx, "greet"); got.Body != edited.Body {
			t.Fatalf("body %q after the edit", got.Body)
		}
	})

	invalid := []struct {
		name string
		t    Info
		code errs.Code
		says string
	}{
		{"a body using an undeclared variable is refused naming it", Info{Name: "x", Body: "hi {{who}} from {{where}}", Variables: []string{"who"}}, errs.TemplateInvalid, `"where"`},
		{"a body with variables but no declarations is refused naming them", Info{Name: "x", Body: "hi {{who}}"}, errs.TemplateInvalid, `"who"`},
		{"a declared variable the body never uses is refused", Info{Name: "x", Body: "hi {{who}}", Variables: []string{"who", "extra"}}, errs.TemplateInvalid, `"extra"`},
		{"an empty body is refused", Info{Name: "x", Body: "  \n"}, errs.TemplateInvalid, "empty body"},
		{"a bad name is refused", Info{Name: "Bad Name", Body: "hi"}, errs.TemplateInvalid, "Bad Name"},
		{"an unclosed brace is refused with its place", Info{Name: "x", Body: "hi {{who"}, errs.TemplateInvalid, "line 1, column 4"},
		{"a built-in name cannot be replaced", Info{Name: "review", Body: "mine"}, errs.BadInput, "built-in"},
	}
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			_, err := repo.Save(ctx, tc.t)
			if errs.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("save %+v: %v, want %s mentioning %s", tc.t, err, tc.code, tc.says)
			}
			if tc.t.Name == "x" {
				if _, err := repo.Get(ctx, "x"); !errs.Has(err, errs.TemplateNotFound) {
					t.Fatalf("a refused template was stored: %v", err)
				}
			}
		})
	}

	t.Run("rendering fills every variable", func(t *testing.T) {
		out, err := repo.Render(ctx, "greet", map[string]string{"name": "Ada", "lang": "French"})
		if err != nil || out != "Greet Ada warmly in French." {
			t.Fatalf("render %q %v", out, err)
		}
		out, err = repo.Render(ctx, "review", map[string]string{"change": "diff --git a/x b/x"})
		if err != nil || !strings.HasSuffix(out, "diff --git a/x b/x") {
			t.Fatalf("render built-in %q %v", out, err)
		}
	})

	t.Run("a missing variable is bad input naming it and the --var fix", func(t *testing.T) {
		_, err := repo.Render(ctx, "greet", map[string]string{"name": "Ada"})
		e := errs.From(err)
		if e.Code != errs.BadInput || !strings.Contains(e.Message, `"lang"`) || !strings.Contains(e.RetryHint, "--var lang=") {
			t.Fatalf("render without lang: %+v", e)
		}
	})

	t.Run("a variable the template does not use is bad input listing its variables", func(t *testing.T) {
		_, err := repo.Render(ctx, "greet", map[string]string{"name": "Ada", "lang": "en", "colour": "red"})
		e := errs.From(err)
		if e.Code != errs.BadInput || !strings.Contains(e.Message, `"colour"`) || !strings.Contains(e.RetryHint, "name, lang") {
			t.Fatalf("render with colour: %+v", e)
		}
	})

	t.Run("an unknown template is not found", func(t *testing.T) {
		if _, err := repo.Render(ctx, "nope", nil); !errs.Has(err, errs.TemplateNotFound) {
			t.Fatalf("render nope: %v", err)
		}
	})

	t.Run("a built-in template cannot be deleted", func(t *testing.T) {
		if err := repo.Delete(ctx, "review"); !errs.Has(err, errs.BadInput) {
			t.Fatalf("delete review: %v", err)
		}
	})

	t.Run("deleting a user template removes it, and deleting it again is not found", func(t *testing.T) {
		if err := repo.Delete(ctx, "greet"); err != nil {
			t.Fatal(err)
		}
		if _, err := repo.Get(ctx, "greet"); !errs.Has(err, errs.TemplateNotFound) {
			t.Fatalf("get after delete: %v", err)
		}
		if err := repo.Delete(ctx, "greet"); !errs.Has(err, errs.TemplateNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	})
	t.Run("a closed store is an internal error, never a panic", func(t *testing.T) {
		closed := New(func() *store.Store { return nil })
		if _, err := closed.List(ctx); !errs.Has(err, errs.Internal) {
			t.Fatalf("list on a closed store: %v", err)
		}
		if _, err := (Repo{}).Get(ctx, "greet"); !errs.Has(err, errs.Internal) {
			t.Fatalf("get on the zero repository: %v", err)
		}
	})
}

// openStore opens the store in dir for one test, closed when it ends.
func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dir, store.WithRole("test"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}
