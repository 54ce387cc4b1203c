package prompt

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// FuzzTemplateRender: any body either fails with TemplateInvalid or renders
// with a value for each of its variables.
func FuzzTemplateRender(f *testing.F) {
	f.Add("Hello {{name}}\n{{ x }} \\{{lit}}")
	f.Add("{{unclosed")
	f.Fuzz(func(t *testing.T, body string) {
		tpl := Template{Name: "t", Body: body}
		vars, err := tpl.Variables()
		if err != nil {
			if !errs.Has(err, errs.TemplateInvalid) {
				t.Fatalf("parse error is not template_invalid: %v", err)
			}
			return
		}
		values := map[string]string{}
		for _, v := range vars {
			values[v] = "v"
		}
		if _, err := tpl.Render(values); err != nil && !errs.Has(err, errs.TemplateInvalid) {
			t.Fatalf("render: %v", err)
		}
	})
}
