package site

import (
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestSitesEditorPlacesEveryProblem(t *testing.T) {
	cases := []struct {
		name       string
		text       string
		code       errs.Code
		line, col  string
		entry      string
		msgContain string
	}{
		{name: "an empty editor means no overrides", text: "  \n"},
		{name: "a rename of a built-in site is accepted", text: "[\n  {\"id\": \"chatgpt\", \"name\": \"ChatGPT (work)\"}\n]"},
		{name: "a missing comma is a syntax error on the line after it", text: "[\n  {\"id\": \"chatgpt\"}\n  {\"id\": \"claude\"}\n]",
			code: errs.ConfigInvalid, line: "3", col: "3", msgContain: "syntax error"},
		{name: "an unclosed list says the text ends too early", text: "[\n  {\"id\": \"chatgpt\"",
			code: errs.ConfigInvalid, line: "2", msgContain: "ends in the middle"},
		{name: "an object instead of a list says what the sites must be", text: "{\"id\": \"chatgpt\"}",
			code: errs.ConfigInvalid, line: "1", col: "1", msgContain: "must be a JSON list"},
		{name: "an entry that is not an object is named by its number", text: "[\n  {\"id\": \"chatgpt\"},\n  \"claude\"\n]",
			code: errs.ConfigInvalid, line: "3", col: "3", entry: "2", msgContain: "entry 2 must be an object"},
		{name: "an unknown field is placed on its own line", text: "[\n  {\n    \"id\": \"chatgpt\",\n    \"nmae\": \"x\"\n  }\n]",
			code: errs.ConfigInvalid, line: "4", col: "5", entry: "1", msgContain: "nmae"},
		{name: "an incomplete custom site names what it lacks", text: "[\n  {\"id\": \"mysite\", \"name\": \"Mine\", \"address\": \"https://example.com/\"}\n]",
			code: errs.SiteIncomplete, line: "2", col: "3", entry: "1", msgContain: "missing"},
		{name: "text after the list is refused", text: "[]\nx",
			code: errs.ConfigInvalid, line: "2", col: "1", msgContain: "more text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raws, err := Builtin().CheckOverridesText(c.text)
			if c.code == "" {
				if err != nil {
					t.Fatalf("parseSites: %v", err)
				}
				if raws == nil {
					t.Fatal("nil sites; the settings file wants []")
				}
				return
			}
			e := errs.From(err)
			if err == nil || e.Code != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			if e.Evidence["line"] != c.line || (c.col != "" && e.Evidence["column"] != c.col) || e.Evidence["entry"] != c.entry {
				t.Errorf("placed at line %s column %s entry %q, want %s:%s entry %q (%s)",
					e.Evidence["line"], e.Evidence["column"], e.Evidence["entry"], c.line, c.col, c.entry, e.Message)
			}
			if e.Evidence["field"] != "sites" || !strings.Contains(e.Message, c.msgContain) {
				t.Errorf("message %q (field %q), want it to contain %q", e.Message, e.Evidence["field"], c.msgContain)
			}
		})
	}
}
