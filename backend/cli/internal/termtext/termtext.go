// Package termtext writes the Service's results as the ferry commands show
// them at a terminal: the live check of the sites, a run's progress and the
// end of a followed one, the doctor's verdicts, the tables of tabs, runs,
// approvals, clients and templates, the files a run would send and the zips
// it brought home. Each function takes the writer and the typed result (the
// commands print --json themselves); every text a site or an agent chose is
// escaped (safetext), so it cannot draw on the terminal.
package termtext

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/safetext"
)

// Printable is s (a title, a URL, a file name: a site or an agent chose
// it) on one line with every control and format character escaped
// visibly, cut to at most n characters of s with "…".
func Printable(s string, n int) string {
	head, rest := safetext.Head(s, n)
	if rest > 0 {
		head, _ = safetext.Head(s, n-1)
		return head + "…"
	}
	return head
}

// oneLine is s with its whitespace folded and every control and format
// character escaped, cut to at most n characters of s with "…".
func oneLine(s string, n int) string {
	return Printable(strings.Join(strings.Fields(s), " "), n)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
