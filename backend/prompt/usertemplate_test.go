package prompt

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestTemplateRender(t *testing.T) {
	tpl := Template{
		Name: "review",
		Body: "Review {{ repo }} at {{commit}}.\nFocus: {{focus}}\nLiteral: \\{{not_a_var}}",
		Vars: []Var{{Name: "repo", Required: true}, {Name: "commit", Default: "HEAD"}, {Name: "focus"}},
	}
	got, err := tpl.Render(map[string]string{"repo": "acme/app"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Review acme/app at HEAD.\nFocus: \nLiteral: {{not_a_var}}"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	implicit := Template{Name: "x", Body: "Hello {{name}}, {{name}}!"}
	if got, err := implicit.Render(map[string]string{"name": "Ann"}); err != nil || got != "Hello Ann, Ann!" {
		t.Errorf("implicit variables: %q %v", got, err)
	}
	if vs, _ := tpl.Variables(); strings.Join(vs, ",") != "repo,commit,focus" {
		t.Errorf("variables = %v", vs)
	}
}

func TestTemplateErrorsNameTheVariableAndPlace(t *testing.T) {
	cases := []struct {
		name   string
		tpl    Template
		values map[string]string
		says   []string
	}{
		{"a missing value", Template{Name: "t", Body: "a\n  b {{who}}"}, nil, []string{`"who"`, "line 2, column 5"}},
		{"a missing required value", Template{Name: "t", Body: "{{who}}", Vars: []Var{{Name: "who", Required: true}}}, nil, []string{`"who"`, "line 1, column 1"}},
		{"a value for an unknown variable", Template{Name: "t", Body: "{{who}}"}, map[string]string{"who": "a", "whom": "b"}, []string{`unknown variable "whom"`, "uses who"}},
		{"an undeclared variable", Template{Name: "t", Body: "x {{a}} {{b}}", Vars: []Var{{Name: "a"}}}, nil, []string{`unknown variable "b"`, "line 1, column 9"}},
		{"a declared variable never used", Template{Name: "t", Body: "x", Vars: []Var{{Name: "a"}}}, nil, []string{`"a" is declared but`}},
		{"an unclosed brace", Template{Name: "t", Body: "ok\né {{name"}, nil, []string{"line 2, column 3", "never closed"}},
		{"a bad variable name", Template{Name: "t", Body: "{{ 9lives }}"}, nil, []string{"not a variable name", "line 1, column 1"}},
		{"a bad template name", Template{Name: "Bad Name", Body: "x"}, nil, []string{`"Bad Name"`}},
		{"an empty body", Template{Name: "t", Body: " \n"}, nil, []string{"empty body"}},
		{"a variable declared twice", Template{Name: "t", Body: "{{a}}", Vars: []Var{{Name: "a"}, {Name: "a"}}}, nil, []string{"declared twice"}},
	}
	for _, c := range cases {
		t.Run(c.name+" is template_invalid", func(t *testing.T) {
			_, err := c.tpl.Render(c.values)
			if !errs.Has(err, errs.TemplateInvalid) {
				t.Fatalf("err = %v", err)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
		})
	}
}

func TestMemoryStore(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	if _, err := s.Get(ctx, "none"); !errs.Has(err, errs.TemplateNotFound) {
		t.Errorf("get of a missing template: %v", err)
	}
	if _, err := s.Put(ctx, Template{Name: "bad", Body: "{{x"}); !errs.Has(err, errs.TemplateInvalid) {
		t.Errorf("put of an invalid template: %v", err)
	}
	saved, err := s.Put(ctx, Template{Name: "b", Body: "{{x}}", Vars: []Var{{Name: "x"}}})
	if err != nil || saved.UpdatedAt.IsZero() {
		t.Fatalf("put: %v %+v", err, saved)
	}
	s.Put(ctx, Template{Name: "a", Body: "plain"})
	saved.Vars[0].Name = "mutated"
	got, _ := s.Get(ctx, "b")
	if got.Vars[0].Name != "x" {
		t.Error("the store shares memory with its callers")
	}
	if _, err := s.Put(ctx, Template{Name: "b", Body: "v2"}); err != nil {
		t.Fatal(err)
	}
	list, _ := s.List(ctx)
	if len(list) != 2 || list[0].Name != "a" || list[1].Body != "v2" {
		t.Errorf("list = %+v", list)
	}
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "a"); !errs.Has(err, errs.TemplateNotFound) {
		t.Errorf("second delete: %v", err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Put(ctx, Template{Name: "c", Body: "x"})
			s.List(ctx)
			s.Get(ctx, "c")
		}()
	}
	wg.Wait()
}
