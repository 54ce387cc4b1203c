package termtext

import (
	"fmt"
	"io"
	"strings"

	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Templates prints the templates one line each: name, built-in or
// saved, description.
func Templates(w io.Writer, list []service.Template) error {
	for _, t := range list {
		kind := "saved"
		if t.BuiltIn {
			kind = "built-in"
		}
		fmt.Fprintf(w, "%-24s %-8s %s\n", safetext.Line(t.Name), kind, safetext.Line(t.Description))
	}
	return nil
}

// Template prints one template: its name, whether it is built in, its
// description, variables and body.
func Template(w io.Writer, t service.Template) error {
	kind := "saved"
	if t.BuiltIn {
		kind = "built-in"
	}
	fmt.Fprintf(w, "name:        %s (%s)\n", safetext.Line(t.Name), kind)
	if t.Description != "" {
		fmt.Fprintf(w, "description: %s\n", safetext.Line(t.Description))
	}
	fmt.Fprintf(w, "variables:   %s\n", safetext.Line(orNone(t.Variables)))
	if !t.UpdatedAt.IsZero() {
		fmt.Fprintf(w, "updated:     %s\n", t.UpdatedAt.Format("2006-01-02 15:04:05Z07:00"))
	}
	fmt.Fprintf(w, "\n%s\n", safetext.Block(strings.TrimRight(t.Body, "\n")))
	return nil
}

// TemplateSaved says that template t was saved, with its variables.
func TemplateSaved(w io.Writer, t service.Template) {
	fmt.Fprintf(w, "saved template %s (variables: %s)\n", safetext.Line(t.Name), safetext.Line(orNone(t.Variables)))
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
