package cli

import (
	"context"
	"flag"
	"io"

	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The CLI is a face of service.Service and imports no more of the backend
// than the service layer. What needs more — opening the data directory in
// this process, owning it (`ferry serve`), serving the simulator, reading a
// zip with the verifier, the machine checks — is supplied by the package
// that builds the binary (backend/clihost), through the two hooks below,
// from its init.

// Command is a verb added to the CLI from outside this package.
type Command struct {
	Name  string // the verb, e.g. "serve"
	Args  string // usage after the name
	Short string // one line for `ferry help`
	Long  string // the help text of `ferry help NAME`
	// Flags defines the command's own flags (the global ones are added).
	Flags func(fs *flag.FlagSet)
	// Run does the work; its errors are printed and mapped to exit codes
	// as every command's are.
	Run func(ctx context.Context, inv *Invocation) error
}

// Register adds c to the command tree. It panics on a name already taken
// (a programming error that the first run shows).
func Register(c Command) {
	register(&command{name: c.Name, args: c.Args, short: c.Short, long: c.Long, flags: c.Flags, run: c.Run})
}

// Invocation is what a command's Run gets: its parsed flags and arguments
// and where to print.
type Invocation = invocation

// DataDir is the --data-dir flag ("" for the default).
func (inv *invocation) DataDir() string { return inv.dataDir }

// JSON reports whether --json was given.
func (inv *invocation) JSON() bool { return inv.json }

// Args are the positional arguments.
func (inv *invocation) Args() []string { return inv.args }

// Flag is the parsed value of the command's flag name; it panics on a name
// the command did not define.
func (inv *invocation) Flag(name string) any { return inv.flag(name) }

// Stdout is where the command prints its result.
func (inv *invocation) Stdout() io.Writer { return inv.stdout }

// Stderr is where the command prints progress and errors.
func (inv *invocation) Stderr() io.Writer { return inv.stderr }

// PrintJSON writes v as indented JSON with a trailing newline.
func (inv *invocation) PrintJSON(v any) error { return inv.printJSON(v) }

// Reported marks err as already printed by the command: Main only turns it
// into an exit code.
func Reported(err error) error { return errReported{err} }

// Printable is s on one line with every control and format character and
// every byte that is not UTF-8 escaped visibly (safetext.Line), cut to at
// most n characters of s: for text from a site or a file shown at a terminal.
func Printable(s string, n int) string { return termtext.Printable(s, n) }

// ApprovalHead is an approval's prompt for one line: its length, then its
// first n characters escaped (safetext.Line), marked as cut with how much
// is left and the command that shows it whole.
func ApprovalHead(a service.Approval, n int) string { return termtext.ApprovalHead(a, n) }

// LocalOpener opens an in-process Service over the data directory dataDir
// for one command, opened by role ("cli"); done releases it.
type LocalOpener func(ctx context.Context, dataDir, role string) (svc service.Service, done func(), err error)

var local LocalOpener

// SetLocal installs the in-process Service the commands use when no owner
// runs for the data directory.
func SetLocal(open LocalOpener) { local = open }

// openLocal is the installed LocalOpener. Errors: Internal for a binary
// built without one.
func openLocal(ctx context.Context, dataDir, role string) (service.Service, func(), error) {
	if local == nil {
		return nil, nil, errs.New(errs.Internal, "this ferry binary cannot open the data directory itself").
			WithHint("build ferry from backend/cmd/ferry, which links the in-process service, or start the Ferry app")
	}
	return local(ctx, dataDir, role)
}

// Restorer is `ferry sessions restore [FILE]`: it replaces the history
// store with a backup (the newest when file is ""), which touches the store
// directly, so the package that builds the binary supplies it.
type Restorer func(ctx context.Context, inv *Invocation, file string) error

var restorer Restorer

// SetRestore installs `ferry sessions restore`.
func SetRestore(r Restorer) { restorer = r }
