package cmddoc

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ferrydesk/ferry/backend/errs"
)

// ExitClass is one exit code of `ferry help exit-codes --json`: the class
// and every error code in it, straight from errs.Catalog, so the table
// cannot drift from what Ferry returns.
type ExitClass struct {
	Exit  int         `json:"exit"`
	Class string      `json:"class"`
	Codes []errs.Code `json:"codes"`
}

// ExitClasses groups the catalog by class, in exit-code order; a class
// without codes (ok) is listed too.
func ExitClasses() []ExitClass {
	var out []ExitClass
	for c := errs.ClassOK; c.String() != ""; c++ {
		out = append(out, ExitClass{Exit: c.ExitCode(), Class: c.String(), Codes: []errs.Code{}})
	}
	for _, s := range errs.Catalog() {
		for i := range out {
			if out[i].Exit == s.Class.ExitCode() {
				out[i].Codes = append(out[i].Codes, s.Code)
			}
		}
	}
	return out
}

// ExitTable writes the table of exit codes: each class with its error
// codes.
func ExitTable(w io.Writer, classes []ExitClass) error {
	fmt.Fprintln(w, "Exit codes of ferry (the error's code is in its message, and in --json output):")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EXIT\tCLASS\tERROR CODES")
	for _, c := range classes {
		codes := make([]string, len(c.Codes))
		for i, code := range c.Codes {
			codes[i] = string(code)
		}
		lines := wrapList(codes, 60)
		if c.Exit == 0 {
			lines = []string{"(success)"}
		}
		for i, l := range lines {
			if i == 0 {
				fmt.Fprintf(tw, "%d\t%s\t%s\n", c.Exit, c.Class, l)
			} else {
				fmt.Fprintf(tw, "\t\t%s\n", l)
			}
		}
	}
	return tw.Flush()
}

// wrapList joins items with ", " into lines of at most width bytes (an item
// longer than width gets a line of its own).
func wrapList(items []string, width int) []string {
	var lines []string
	var cur strings.Builder
	for i, it := range items {
		sep := ""
		if i < len(items)-1 {
			sep = ","
		}
		if cur.Len() > 0 && cur.Len()+1+len(it)+len(sep) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteString(" ")
		}
		cur.WriteString(it + sep)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
