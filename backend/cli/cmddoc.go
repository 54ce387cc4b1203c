package cli

import (
	"context"
	"flag"
	"io"
	"maps"
	"slices"

	"github.com/ferrydesk/ferry/backend/cli/internal/cmddoc"
	"github.com/ferrydesk/ferry/backend/errs"
)

// The documents of the command tree (package cmddoc): `ferry help`, the
// topics that are not commands (exit-codes, man) and `ferry completion`,
// all made from the commands as registered.

// helpTopics are the `ferry help` topics that are not commands.
var helpTopics = map[string]func(inv *invocation) error{
	"exit-codes": writeExitCodes,
	"man":        func(inv *invocation) error { return cmddoc.ManPage(inv.stdout, docs()) },
}

// writeExitCodes prints the table of exit codes: each class with its error
// codes (with --json, the same as a list of objects).
func writeExitCodes(inv *invocation) error {
	classes := cmddoc.ExitClasses()
	if inv.json {
		return inv.printJSON(classes)
	}
	return cmddoc.ExitTable(inv.stdout, classes)
}

func init() {
	register(&command{
		name:  "completion",
		args:  "bash|zsh|fish",
		short: "print the shell completion script for bash, zsh or fish",
		long: `Prints a completion script for the shell: commands, their verbs and their flags.

  bash   source it, or save it as ~/.local/share/bash-completion/completions/ferry
  zsh    save it as _ferry in a directory of $fpath
  fish   save it as ~/.config/fish/completions/ferry.fish

The packages install all three.`,
		run: runCompletion,
	})
}

func runCompletion(_ context.Context, inv *invocation) error {
	if len(inv.args) != 1 {
		return errs.New(errs.BadInput, "ferry completion takes one shell: bash, zsh or fish").WithHint("e.g. `ferry completion bash`")
	}
	cmds, topics := docs(), slices.Collect(maps.Keys(helpTopics))
	switch inv.args[0] {
	case "bash":
		return cmddoc.Bash(inv.stdout, cmds, topics)
	case "zsh":
		return cmddoc.Zsh(inv.stdout, cmds, topics)
	case "fish":
		return cmddoc.Fish(inv.stdout, cmds, topics)
	}
	return errs.New(errs.BadInput, "no completion for shell %q", inv.args[0]).WithHint("use bash, zsh or fish")
}

// writeCommandHelp writes `ferry help NAME` for c, with its flags and the
// global ones.
func writeCommandHelp(w io.Writer, c *command) error {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	var g globals
	g.register(fs)
	if c.flags != nil {
		c.flags(fs)
	}
	return cmddoc.Usage(w, docOf(c), fs)
}

// docs is the command tree as its documents show it, sorted by name.
func docs() []cmddoc.Command {
	var out []cmddoc.Command
	for _, c := range sortedCommands() {
		out = append(out, docOf(c))
	}
	return out
}

// docOf is c as its documents show it.
func docOf(c *command) cmddoc.Command {
	return cmddoc.Command{Name: c.name, Args: c.args, Short: c.short, Long: c.long, Flags: commandFlags(c)}
}

// commandFlags are c's own flags (not the global ones), sorted by name.
func commandFlags(c *command) []*flag.Flag {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	if c.flags != nil {
		c.flags(fs)
	}
	var out []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { out = append(out, f) })
	return out
}
