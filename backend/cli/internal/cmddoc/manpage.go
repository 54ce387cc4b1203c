package cmddoc

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ferrydesk/ferry/backend/version"
)

// The manual page is made from the command tree itself (each command's
// usage, text and flags, and the exit codes of errs.Catalog), so that the
// packaged page cannot drift from `ferry help`.

// ManPage writes ferry(1) in troff (man macros) for the commands cmds,
// sorted by name.
func ManPage(w io.Writer, cmds []Command) error {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH FERRY 1 \"\" \"ferry %s\" \"User Commands\"\n", troff(version.Get().Version))
	b.WriteString(".SH NAME\nferry \\- drive your logged-in AI chat sites from the desktop, the shell and your agents\n")
	b.WriteString(".SH SYNOPSIS\n.B ferry\n[\\fB\\-\\-data\\-dir\\fR \\fIDIR\\fR] [\\fB\\-\\-json\\fR] \\fIcommand\\fR [\\fIflags\\fR] [\\fIargs\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	b.WriteString(troff("Ferry sends prompts to the web AI chat sites you are logged in to (ChatGPT, Claude, Gemini, Grok, Kimi, DeepSeek, AI Studio) in your own Chromium, waits for the true end of each answer, verifies the files they produce and keeps every run in a local history. The desktop app is ferry-desktop; this command shares its core, and works through the app's local API while it runs.") + "\n")
	b.WriteString(".SH GLOBAL OPTIONS\n")
	b.WriteString(".TP\n\\fB\\-\\-data\\-dir\\fR \\fIDIR\\fR\nuse this data directory (default: $FERRY_DATA_DIR, then the platform's data directory)\n")
	b.WriteString(".TP\n\\fB\\-\\-json\\fR\nprint machine-readable JSON (errors too, as {\"error\": {...}} on stdout)\n")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, ".SS %s\n", troff(strings.TrimSpace("ferry "+c.Name+" "+c.Args)))
		fmt.Fprintf(&b, "%s\n", troff(c.Short))
		if c.Long != "" {
			for _, para := range strings.Split(strings.TrimSpace(c.Long), "\n\n") {
				fmt.Fprintf(&b, ".PP\n%s\n", troff(para))
			}
		}
		for _, f := range c.Flags {
			arg, usage := flag.UnquoteUsage(f)
			fmt.Fprintf(&b, ".TP\n\\fB\\-\\-%s\\fR", troff(f.Name))
			if arg != "" {
				fmt.Fprintf(&b, " \\fI%s\\fR", troff(arg))
			}
			fmt.Fprintf(&b, "\n%s\n", troff(usage))
		}
	}
	b.WriteString(".SH EXIT STATUS\n")
	for _, c := range ExitClasses() {
		codes := make([]string, len(c.Codes))
		for i, code := range c.Codes {
			codes[i] = string(code)
		}
		fmt.Fprintf(&b, ".TP\n\\fB%d\\fR %s\n", c.Exit, troff(c.Class))
		if len(codes) > 0 {
			fmt.Fprintf(&b, "%s\n", troff(strings.Join(codes, ", ")))
		}
	}
	b.WriteString(".SH ENVIRONMENT\n.TP\n\\fBFERRY_DATA_DIR\\fR\nthe data directory when \\-\\-data\\-dir is not given\n")
	b.WriteString(".SH SEE ALSO\n\\fBferry\\-desktop\\fR(1), \\fBchromium\\fR(1)\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// troff escapes s for the body of a man page: backslashes, hyphens and
// characters outside ASCII (as \[uXXXX]), and a line that would start with
// a dot or a quote.
func troff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	var b strings.Builder
	for _, r := range s {
		if r > 127 {
			fmt.Fprintf(&b, `\[u%04X]`, r)
			continue
		}
		b.WriteRune(r)
	}
	s = b.String()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
