package store

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// Option configures Open.
type Option func(*config)

type config struct {
	role       string
	program    string
	syncWrites bool
	logger     io.Writer
	migrations []Migration
	gcInterval time.Duration
}

func defaultConfig() config {
	return config{
		role:       "cli",
		program:    programName(),
		syncWrites: true,
		migrations: builtinMigrations,
		gcInterval: 10 * time.Minute,
	}
}

// programName is the name a second opener is shown: "ferry" for both the CLI
// and the desktop binary, the test binary's name in tests.
func programName() string {
	name := filepath.Base(os.Args[0])
	name = strings.TrimSuffix(name, ".exe")
	if name == "" || name == "." {
		return "ferry"
	}
	return name
}

// WithRole records what the owner is doing ("desktop", "cli", "serve",
// "test"); a second opener is shown it. The default is "cli".
func WithRole(role string) Option {
	return func(c *config) {
		if role != "" {
			c.role = role
		}
	}
}

// WithProgram overrides the program name recorded for a second opener (the
// default is the base name of os.Args[0]).
func WithProgram(name string) Option {
	return func(c *config) {
		if name != "" {
			c.program = name
		}
	}
}

// WithSyncWrites sets whether each commit is fsynced before it is
// acknowledged. The default is true: a run journal must survive power loss.
// Without it a commit still survives the process being killed, and bulk
// writes are about twice as fast.
func WithSyncWrites(sync bool) Option {
	return func(c *config) { c.syncWrites = sync }
}

// WithLogger routes badger's warnings and errors to w (a log file, say).
// Without it badger logs nothing: it never writes to the user's terminal.
func WithLogger(w io.Writer) Option {
	return func(c *config) { c.logger = w }
}

// WithMigrations replaces the built-in migration list. It exists for tests of
// the migration machinery; production code uses the built-in list.
func WithMigrations(m []Migration) Option {
	return func(c *config) { c.migrations = m }
}

// Small-footprint options measured on the target machine (see
// shared/TOOLCHAIN.md): GoSys at open 96 -> 20 MB, apparent size 2.2 GB -> 76
// MB, crash-reopen 0.7 -> 0.05 s at the same write speed.
const (
	memTableSize     = 8 << 20
	valueLogFileSize = 16 << 20
	// valueThreshold keeps records in the LSM tree while a large value goes to
	// the value log, so a transaction (capped at 15 % of the memtable, 1.2 MB)
	// can still carry a few big values.
	valueThreshold = 64 << 10
)

// MaxValueSize is the largest value Put accepts: well below the value-log
// file size, so a value always fits in one value-log file. Larger content
// belongs on disk with its path in the store.
const MaxValueSize = 4 << 20

func badgerOptions(dir string, c config) badger.Options {
	opts := badger.DefaultOptions(dir).
		WithMemTableSize(memTableSize).
		WithNumMemtables(2).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(4).
		WithBlockCacheSize(8 << 20).
		WithIndexCacheSize(4 << 20).
		WithValueLogFileSize(valueLogFileSize).
		WithValueThreshold(valueThreshold).
		WithBaseTableSize(1 << 20).
		WithNumCompactors(2).
		WithMetricsEnabled(false).
		WithSyncWrites(c.syncWrites).
		// Every block is checked against its checksum when it is read, and
		// every value read from the value log; Open has verified every
		// table before (see Verify).
		WithChecksumVerificationMode(options.OnBlockRead).
		WithVerifyValueChecksum(true).
		WithLogger(nil)
	if c.logger != nil {
		opts = opts.WithLogger(writerLogger{w: c.logger})
	}
	return opts
}

// writerLogger adapts an io.Writer to badger's Logger.
type writerLogger struct{ w io.Writer }

func (l writerLogger) log(level, format string, args ...any) {
	msg := strings.TrimRight(fmt.Sprintf(format, args...), "\n")
	fmt.Fprintf(l.w, "%s badger %s: %s\n", time.Now().Format(time.RFC3339), level, msg)
}

func (l writerLogger) Errorf(f string, a ...any)   { l.log("error", f, a...) }
func (l writerLogger) Warningf(f string, a ...any) { l.log("warning", f, a...) }

// Infof and Debugf drop badger's chatter (table counts, replay progress): the
// log is for problems.
func (l writerLogger) Infof(string, ...any)  {}
func (l writerLogger) Debugf(string, ...any) {}
