package termtext

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Sessions prints a listing of runs as a table, newest or best match
// first, and how many more there are than the listing holds.
func Sessions(w io.Writer, items []service.Listed, total int) error {
	if len(items) == 0 {
		_, err := fmt.Fprintln(w, "no sessions match")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSITE\tSTATE\tTOOL\tCREATED\tPROMPT")
	for _, it := range items {
		s := it.Session
		// A run without a tool reads as the filter that finds it (--tool none).
		tool := cmp.Or(s.ToolAsked(), record.NoTool)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.Site, s.State, oneLine(tool, 20), s.Created.Local().Format("2006-01-02 15:04"), oneLine(s.Prompt, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if total > len(items) {
		fmt.Fprintf(w, "(%d of %d; raise --limit for more)\n", len(items), total)
	}
	return nil
}

// Attachments lists the files a run sent, as `sessions show` shows
// them: name, size and sha256 ("" for a run without attachments).
func Attachments(files []service.Attachment) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Attachments (%d)\n\n", len(files))
	for _, f := range files {
		line := fmt.Sprintf("%s  %s  sha256 %s", safetext.Line(f.Name), attach.Size(f.Bytes), f.SHA256)
		if f.RenamedFrom != "" {
			line += "  (renamed from " + safetext.Line(f.RenamedFrom) + ")"
		}
		if f.SiteName != "" {
			line += "  (the site named it " + safetext.Line(f.SiteName) + ")"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// Thread is the thread of run id as `sessions show` ends with it: one
// line per run, oldest first, id's marked ("" for a run in no thread).
func Thread(id string, thread []service.SessionSummary) string {
	if len(thread) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Thread (%d runs in this conversation)\n\n", len(thread))
	for _, t := range thread {
		mark := " "
		if t.ID == id {
			mark = "*"
		}
		title, rest := safetext.Head(t.Title, 70)
		if rest > 0 {
			title += "…"
		}
		fmt.Fprintf(&b, "%s %s  %s  %s\n", mark, t.ID, t.UpdatedAt.Local().Format("2006-01-02 15:04"), safetext.Line(title))
	}
	return b.String()
}
