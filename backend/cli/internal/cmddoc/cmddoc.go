// Package cmddoc writes the documents of the ferry command tree: the
// overview and a command's usage (`ferry help`), the manual page ferry(1),
// the bash, zsh and fish completion scripts and the table of exit codes
// (from errs.Catalog). Each is made from the commands as the CLI defines
// them, so none can drift from what the CLI takes.
package cmddoc

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is one command of the tree as its documents show it.
type Command struct {
	Name  string       // the verb, e.g. "ask"
	Args  string       // usage after the name, e.g. "[command]"
	Short string       // one line
	Long  string       // the help text; paragraphs apart by blank lines
	Flags []*flag.Flag // its own flags (not the global ones), sorted by name
}

// Overview writes `ferry help`: the commands cmds (sorted by name), the
// global flags and the exit codes.
func Overview(w io.Writer, cmds []Command) error {
	var b strings.Builder
	b.WriteString("ferry: drive your logged-in AI chat sites from the desktop, the shell and your agents\n\n")
	b.WriteString("Usage: ferry [--data-dir DIR] [--json] <command> [flags] [args]\n\nCommands:\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "  %-10s %s\n", c.Name, c.Short)
	}
	b.WriteString("\nGlobal flags (before or after the command):\n")
	b.WriteString("  --data-dir DIR  use this data directory (default: $FERRY_DATA_DIR, then the platform's data dir)\n")
	b.WriteString("  --json          print machine-readable JSON (errors too, as {\"error\": {...}} on stdout)\n")
	b.WriteString("  --browser, --browser-url, --chromium, --headless, --browser-arg\n")
	b.WriteString("                  the browser to drive, for the commands that drive one (`ferry help ask`)\n")
	b.WriteString("\nRun `ferry help <command>` for a command's flags.\n")
	b.WriteString("Exit codes: 0 ok, 1 internal, 2 bad input, 3 blocked before send, 4 routing failure,\n")
	b.WriteString("            5 deliverable missing, 6 timeout, 7 artifact failure, 8 cancelled,\n")
	b.WriteString("            9 disk full.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Usage writes `ferry help NAME` for c: its usage, its text and the flags
// of fs (c's own and the global ones).
func Usage(w io.Writer, c Command, fs *flag.FlagSet) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: ferry %s", c.Name)
	if c.Args != "" {
		fmt.Fprintf(&b, " %s", c.Args)
	}
	fmt.Fprintf(&b, "\n\n%s\n", c.Short)
	if c.Long != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(c.Long))
	}
	b.WriteString("\nFlags:\n")
	fs.SetOutput(&b)
	fs.PrintDefaults()
	_, err := io.WriteString(w, b.String())
	return err
}
