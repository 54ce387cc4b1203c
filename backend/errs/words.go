package errs

import "regexp"

// cliWords matches a command-line flag (--tab) or a ferry command
// (`ferry doctor`, ferry reattach).
var cliWords = regexp.MustCompile("(^|[^\\w-])--[a-z]|\\bferry [a-z]")

// NamesCLI reports whether text tells its reader to use a flag or a ferry
// command: words for a terminal, which a face without one (the window, an
// agent over MCP) says its own way.
func NamesCLI(text string) bool { return cliWords.MatchString(text) }
