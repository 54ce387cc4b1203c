package termtext

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Projects prints the account's projects, name and address, one a line.
func Projects(w io.Writer, list []service.Project) error {
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no projects")
		return err
	}
	for _, p := range list {
		if _, err := fmt.Fprintf(w, "%s\t%s\n", safetext.Line(p.Name), safetext.Line(p.Address)); err != nil {
			return err
		}
	}
	return nil
}

// SourcesQuestion lists the files of a checked AddSourcesRequest on w and
// returns the question to ask before they go: `Add 2 files (1.2 KiB) to
// the project "Harbour notes"? [y/N] ` (its address when it has no name).
func SourcesQuestion(w io.Writer, out service.AddedSources) (string, error) {
	var total int64
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range out.Files {
		total += f.Bytes
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", safetext.Line(f.Name), attach.Size(f.Bytes), safetext.Line(f.Path))
	}
	if err := tw.Flush(); err != nil {
		return "", err
	}
	where := "at " + safetext.Line(out.Project.Address)
	if out.Project.Name != "" {
		where = `"` + safetext.Line(out.Project.Name) + `"`
	}
	return fmt.Sprintf("Add %d %s (%s) to the project %s? [y/N] ", len(out.Files), plural(len(out.Files), "file"), attach.Size(total), where), nil
}

// Sources prints what became of each file of an AddSourcesRequest: added
// (under the site's name when another), refused in the site's words, or
// not confirmed, and the project they went to.
func Sources(w io.Writer, out service.AddedSources) error {
	fmt.Fprintf(w, "project %s  %s\n", safetext.Line(dash(out.Project.Name)), safetext.Line(out.Project.Address))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range out.Files {
		what := ""
		switch {
		case f.Error != nil:
			what = f.Error.Message
		case f.SiteName != "":
			what = "as " + f.SiteName
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", dash(f.Status), safetext.Line(f.Name), attach.Size(f.Bytes), safetext.Line(what))
	}
	return tw.Flush()
}
