package termtext

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Approval prints the waiting job a with the whole of its prompt,
// made safe for the terminal with its newlines kept.
func Approval(w io.Writer, a service.Approval) error {
	fmt.Fprintf(w, "job:       %s\n", safetext.Line(a.JobID))
	fmt.Fprintf(w, "client:    %s\n", safetext.Line(a.ClientName))
	fmt.Fprintf(w, "kind:      %s\n", safetext.Line(string(a.Kind)))
	if a.Site != "" {
		fmt.Fprintf(w, "site:      %s\n", safetext.Line(a.Site))
	}
	fmt.Fprintf(w, "would:     %s\n", safetext.Line(a.Describe()))
	fmt.Fprintf(w, "requested: %s\n", a.RequestedAt.Local().Format("2006-01-02 15:04:05"))
	fmt.Fprintf(w, "prompt:    %s, whole below between the rules (control characters shown as \\x1b, \\u202e…)\n", PromptLength(a.Prompt))
	body := safetext.Block(a.Prompt)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	_, err := fmt.Fprintf(w, "%s\n%s%s\n", ApprovalRule, body, ApprovalRule)
	return err
}

// Approvals prints the jobs that wait for approval, oldest first: each
// prompt's length and its head on one line.
func Approvals(w io.Writer, list []service.Approval) error {
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no job waits for approval")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tCLIENT\tKIND\tSITE\tREQUESTED\tLENGTH\tPROMPT")
	for _, a := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", safetext.Line(a.JobID), safetext.Line(a.ClientName), safetext.Line(string(a.Kind)), safetext.Line(a.Site),
			a.RequestedAt.Local().Format("2006-01-02 15:04:05"), PromptLength(a.Prompt), promptHead(a.JobID, a.Prompt, 60))
		// A line without tabs is no column: the description does not widen them.
		fmt.Fprintf(tw, "  %s\n", safetext.Line(a.Describe()))
	}
	return tw.Flush()
}

// ApprovalRule frames a whole prompt in Approval, so that its first and
// last lines cannot pass for Ferry's own.
const ApprovalRule = "----------------------------------------------------------------"

// PromptLength is the length of a prompt in characters and lines, e.g.
// "5 characters, 2 lines".
func PromptLength(p string) string {
	chars, lines := safetext.Count(p)
	return fmt.Sprintf("%d %s, %d %s", chars, plural(chars, "character"), lines, plural(lines, "line"))
}

// promptHead is the first n characters of the prompt of job id on one line,
// escaped, marked as cut with how much is left and where to read it.
func promptHead(id, p string, n int) string {
	head, rest := safetext.Head(p, n)
	if rest == 0 {
		return head
	}
	return fmt.Sprintf("%s… (%d more %s: ferry approvals show %s)", head, rest, plural(rest, "character"), safetext.Line(id))
}

// ApprovalHead is an approval's prompt for one line: its length, then its
// first n characters escaped (safetext.Line), marked as cut with how much
// is left and the command that shows it whole.
func ApprovalHead(a service.Approval, n int) string {
	return PromptLength(a.Prompt) + ": " + promptHead(a.JobID, a.Prompt, n)
}
