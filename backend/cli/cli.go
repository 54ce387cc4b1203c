// Package cli is the `ferry` command tree. Run parses the arguments and runs
// one command; Main also prints errors and turns them into exit codes. All
// output goes through Stdout and Stderr so tests (and the desktop app) can
// capture it.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/cmddoc"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/safetext"
)

// Stdout and Stderr receive everything the CLI prints.
var (
	Stdout io.Writer = os.Stdout
	Stderr io.Writer = os.Stderr
)

// globals are the flags every command accepts, before or after its name.
type globals struct {
	dataDir string
	json    bool
}

func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.dataDir, "data-dir", g.dataDir, "use this data directory (default: $FERRY_DATA_DIR, then the platform's data dir)")
	fs.BoolVar(&g.json, "json", g.json, "print machine-readable JSON")
}

// command is one verb of the CLI.
type command struct {
	name  string
	args  string // usage after the name, e.g. "[command]"
	short string
	long  string
	flags func(fs *flag.FlagSet) // command-specific flags
	run   func(ctx context.Context, inv *invocation) error
}

// invocation is what a command's run function gets.
type invocation struct {
	globals
	fs     *flag.FlagSet
	args   []string
	stdout io.Writer
	stderr io.Writer
}

// flag returns the parsed value of the command's flag name. It panics on a
// name the command did not define: a programming error a test catches.
func (inv *invocation) flag(name string) any {
	f := inv.fs.Lookup(name)
	if f == nil {
		panic("cli: no flag " + name)
	}
	return f.Value.(flag.Getter).Get()
}

// printJSON writes v as indented JSON with a trailing newline.
func (inv *invocation) printJSON(v any) error {
	enc := json.NewEncoder(inv.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("cli: duplicate command " + c.name)
	}
	commands[c.name] = c
}

func sortedCommands() []*command {
	out := make([]*command, 0, len(commands))
	for _, c := range commands {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// errReported marks an error whose details the command already printed; Main
// only turns it into an exit code.
type errReported struct{ err error }

func (e errReported) Error() string { return e.err.Error() }
func (e errReported) Unwrap() error { return e.err }

// Run runs the command named by args. It returns nil on success and an error
// (an errs envelope where the failure is understood) otherwise.
func Run(ctx context.Context, args []string) error {
	var g globals
	fs := flag.NewFlagSet("ferry", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.register(fs)
	registerBrowserFlags(fs, browserflag.Launch)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cmddoc.Overview(Stdout, docs())
		}
		return errs.New(errs.BadInput, "%v", err).WithHint("run `ferry help` for the global flags")
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return cmddoc.Overview(Stdout, docs())
	}
	name, rest := rest[0], rest[1:]
	cmd, ok := commands[name]
	if !ok {
		e := errs.New(errs.UnknownCommand, "unknown command %q", name)
		if s := closest(name); s != "" {
			e.WithHint("did you mean `ferry %s`? `ferry help` lists every command", s)
		}
		return e
	}
	cfs := flag.NewFlagSet("ferry "+name, flag.ContinueOnError)
	cfs.SetOutput(io.Discard)
	g.register(cfs)
	if cmd.flags != nil {
		cmd.flags(cfs)
	}
	if err := carryGlobalBrowserFlags(fs, cfs, name); err != nil {
		return err
	}
	positional, err := parseInterspersed(cfs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return writeCommandHelp(Stdout, cmd)
		}
		return errs.New(errs.BadInput, "ferry %s: %v", name, err).WithHint("run `ferry help %s` for its usage", name)
	}
	return cmd.run(ctx, &invocation{globals: g, fs: cfs, args: positional, stdout: Stdout, stderr: Stderr})
}

// parseInterspersed parses flags wherever they stand among the positional
// arguments (`ferry settings show --json`); everything after "--" is
// positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// Main runs args and returns the process exit code, printing any error: as a
// human-readable envelope on Stderr, or with --json as {"error": envelope} on
// Stdout.
func Main(ctx context.Context, args []string) int {
	err := Run(ctx, args)
	if err == nil {
		return 0
	}
	var rep errReported
	if errors.As(err, &rep) {
		return errs.ExitCode(rep.err)
	}
	env := errs.From(err)
	if wantsJSON(args) {
		b, _ := json.Marshal(map[string]any{"error": env})
		fmt.Fprintln(Stdout, string(b))
	} else {
		// A message can quote a site or an agent (a file name, a site's
		// error): escaped, newlines kept.
		fmt.Fprintln(Stderr, safetext.Block(env.Human()))
	}
	return errs.ExitCode(env)
}

// wantsJSON looks for --json anywhere in args, so that even a parse error is
// reported in the form the caller asked for.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "-json" || a == "--json=true" || a == "-json=true" {
			return true
		}
	}
	return false
}

// closest returns the command name nearest to name, if it is near enough to
// be a typo (cmddoc.Closest).
func closest(name string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	return cmddoc.Closest(name, names)
}
