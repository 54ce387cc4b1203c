package cli

import (
	"fmt"
	"strings"

	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// showApproval prints the waiting job a with the whole of its prompt,
// made safe for the terminal with its newlines kept.
func showApproval(inv *invocation, a service.Approval) error {
	if inv.json {
		return inv.printJSON(a)
	}
	w := inv.stdout
	fmt.Fprintf(w, "job:       %s\n", safetext.Line(a.JobID))
	fmt.Fprintf(w, "client:    %s\n", safetext.Line(a.ClientName))
	fmt.Fprintf(w, "kind:      %s\n", safetext.Line(string(a.Kind)))
	if a.Site != "" {
		fmt.Fprintf(w, "site:      %s\n", safetext.Line(a.Site))
	}
	fmt.Fprintf(w, "would:     %s\n", safetext.Line(a.Describe()))
	fmt.Fprintf(w, "requested: %s\n", a.RequestedAt.Local().Format("2006-01-02 15:04:05"))
	fmt.Fprintf(w, "prompt:    %s, whole below between the rules (control characters shown as \\x1b, \\u202e…)\n", promptLength(a.Prompt))
	body := safetext.Block(a.Prompt)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	_, err := fmt.Fprintf(w, "%s\n%s%s\n", approvalRule, body, approvalRule)
	return err
}

// approvalRule frames a whole prompt, so that its first and last lines
// cannot pass for Ferry's own.
const approvalRule = "----------------------------------------------------------------"

// promptLength is the length of a prompt in characters and lines.
func promptLength(p string) string {
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

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
