package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Sentinels, matched with errors.Is.
var (
	// ErrNotFound: the key is absent.
	ErrNotFound = errors.New("key not found")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("store closed")
	// ErrValueTooLarge: the value exceeds MaxValueSize.
	ErrValueTooLarge = errors.New("value too large for the store")
	// ErrTxnTooBig: one transaction holds more than badger can commit at once
	// (about 1.2 MB of small records, or some thousands of entries): split it.
	ErrTxnTooBig = badger.ErrTxnTooBig
	// ErrEmptyKey: a key must not be empty.
	ErrEmptyKey = badger.ErrEmptyKey
)

// Store is an open badger store. It is safe for concurrent use.
type Store struct {
	db       *badger.DB
	dir      string
	schema   int
	verified Verification // what Open's Verify checked

	space spaceGuard

	closeOnce sync.Once
	closeErr  error
	stopGC    chan struct{}
	gcDone    chan struct{}
}

// Open opens (creating it if needed) the store in dir, records this process
// as its owner in dir/OWNER, and brings its schema up to date.
//
// Every write (Put, Delete, Update, the value-log GC) is admitted only while
// the disk holding dir keeps a margin free for badger (see space.go); Open
// refuses with errs.DiskFull (naming dir, the free and the needed space)
// when the disk has less than that margin free.
//
// Errors, all envelopes: errs.StoreBusy at once when another process or
// Store holds dir, naming the holder ("data directory /x is in use by ferry
// serve (pid 1234, since 10:02)", where /x is the parent of a store dir
// named "db"; evidence "dir" (the store dir), "pid", "holder", "role",
// "since"); errs.StoreSchemaNewer
// when a newer Ferry wrote it; errs.DataDirUnwritable when dir cannot be
// created or written; errs.StoreCorrupt naming dir when badger cannot read
// its files, or naming the damaged file (evidence "file") when Verify finds
// one — a table failing its checksum, a MANIFEST missing beside table files
// (nothing is opened or deleted then); errs.Cancelled when ctx ends first.
func Open(ctx context.Context, dir string, opts ...Option) (s *Store, err error) {
	if err := ctx.Err(); err != nil {
		return nil, errs.From(err)
	}
	c := defaultConfig()
	for _, o := range opts {
		o(&c)
	}
	if dir == "" {
		return nil, errs.New(errs.BadInput, "store directory is empty").WithStage(errs.StageStore)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if err := validateMigrations(c.migrations); err != nil {
		return nil, errs.Wrap(err, errs.Internal, "store migrations: %v", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if isNoSpace(err) {
			return nil, diskFullError(dir, 0, SpaceMargin)
		}
		return nil, errs.Wrap(err, errs.DataDirUnwritable, "create store directory %s: %v", dir, rootCause(err)).
			WithEvidence("dir", dir)
	}
	// Probe first so that a busy directory is reported without badger
	// touching anything in it, and verify the files before badger opens
	// them: badger skips a table that fails its checksum at open and
	// deletes every table when the MANIFEST is missing.
	verified, held, err := verifyUnheld(dir)
	if held {
		return nil, busyError(dir)
	}
	if err != nil {
		return nil, err
	}
	if err := checkOpenSpace(dir); err != nil {
		return nil, err
	}

	var db *badger.DB
	for attempt := 0; ; attempt++ {
		db, err = openBadger(dir, c)
		if err == nil {
			break
		}
		if locked, perr := dirLocked(dir); (perr == nil && locked) || lockRefused(err) {
			return nil, busyError(dir)
		}
		// Another opener's probe holds the lock for an instant; badger
		// then fails although nobody owns the directory. Try again
		// before calling the store unreadable.
		if attempt == 2 {
			return nil, classifyOpenError(dir, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s = &Store{db: db, dir: dir, verified: verified, space: spaceGuard{dir: dir}, stopGC: make(chan struct{}), gcDone: make(chan struct{})}
	defer func() {
		if err != nil {
			_ = removeOwner(dir)
			_ = db.Close()
		}
	}()

	host, _ := os.Hostname()
	owner := Owner{PID: os.Getpid(), Program: c.program, Role: c.role, Host: host, StartedAt: time.Now().UTC().Truncate(time.Second)}
	if err := writeOwner(dir, owner); err != nil {
		return nil, errs.Wrap(err, errs.DataDirUnwritable, "record owner of %s: %v", dir, rootCause(err)).
			WithEvidence("dir", dir)
	}
	if err := ctx.Err(); err != nil {
		return nil, errs.From(err)
	}
	if s.schema, err = s.migrate(c.migrations); err != nil {
		return nil, err
	}
	go s.gcLoop(c.gcInterval)
	return s, nil
}

// openBadger opens badger, turning a panic on unreadable files into an error.
func openBadger(dir string, c config) (db *badger.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("badger panicked while opening: %v", r)
		}
	}()
	return badger.Open(badgerOptions(dir, c))
}

// classifyOpenError maps a badger open failure that is not a lock conflict:
// a permission, read-only or full-disk failure is the directory's fault;
// anything else is a store badger cannot read.
func classifyOpenError(dir string, err error) error {
	// badger flattens its errors into text, so the cause is found by probing
	// the directory rather than by inspecting err.
	if werr := probeWritable(dir); werr != nil {
		return errs.Wrap(err, errs.DataDirUnwritable, "store directory %s is not writable: %v", dir, rootCause(werr)).
			WithEvidence("dir", dir)
	}
	return errs.Wrap(err, errs.StoreCorrupt, "the store in %s cannot be opened: %v", dir, err).
		WithEvidence("dir", dir)
}

func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	_, werr := f.Write([]byte("ferry"))
	cerr := f.Close()
	os.Remove(name)
	if werr != nil {
		return werr
	}
	return cerr
}

// rootCause strips *fs.PathError wrapping for messages that already name
// the path.
func rootCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var se syscall.Errno
	if errors.As(err, &se) {
		return se
	}
	return err
}

// Dir is the absolute store directory.
func (s *Store) Dir() string { return s.dir }

// Verified is what Open verified before opening: the tables whose every
// block passed its checksum.
func (s *Store) Verified() Verification { return s.verified }

// SchemaVersion is the schema version of the open store.
func (s *Store) SchemaVersion() int { return s.schema }

// Close flushes and closes the store and removes the OWNER sidecar. It is
// safe to call more than once; later calls return the first call's result.
//
// The flush writes the memtable into a new table through a memory map: when
// the disk lacks the room for it, Close returns errs.DiskFull and leaves the
// store open (a write into a hole would be SIGBUS). Nothing acknowledged is
// lost: free space and call Close again, or let the process end, and the
// next Open reads the writes back from the store's log.
func (s *Store) Close() error {
	if err := s.closeSpace(); err != nil {
		return err
	}
	s.closeOnce.Do(func() {
		close(s.stopGC)
		<-s.gcDone
		// The sidecar goes first: once the lock is released another
		// process may write its own, which must not be removed.
		rerr := removeOwner(s.dir)
		if err := s.db.Close(); err != nil {
			s.closeErr = errs.Wrap(err, errs.StoreIO, "close store %s: %v", s.dir, err).WithEvidence("dir", s.dir)
			return
		}
		if rerr != nil {
			s.closeErr = errs.Wrap(rerr, errs.StoreIO, "close store %s: %v", s.dir, rerr).WithEvidence("dir", s.dir)
		}
	})
	return s.closeErr
}

// gcLoop reclaims value-log space left by rewritten large values. Small
// records live in the LSM tree and need no GC; this only matters for values
// above the value threshold.
func (s *Store) gcLoop(every time.Duration) {
	defer close(s.gcDone)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stopGC:
			return
		case <-t.C:
			// GC rewrites live values into a new value-log file.
			for s.space.admit(valueLogFileSize) == nil && s.db.RunValueLogGC(0.5) == nil {
				select {
				case <-s.stopGC:
					return
				default:
				}
			}
		}
	}
}

// Get returns a copy of the value of key, or ErrNotFound.
func (s *Store) Get(key []byte) (val []byte, err error) {
	err = s.View(func(tx *Tx) error {
		val, err = tx.Get(key)
		return err
	})
	return val, err
}

// Put stores val under key. When it returns nil the write is committed and
// survives a crash of this process. Errors: ErrValueTooLarge, ErrEmptyKey,
// ErrClosed, or an errs.StoreIO or errs.DiskFull envelope.
func (s *Store) Put(key, val []byte) error {
	return s.Update(func(tx *Tx) error { return tx.Put(key, val) })
}

// Delete removes key; deleting an absent key is not an error.
func (s *Store) Delete(key []byte) error {
	return s.Update(func(tx *Tx) error { return tx.Delete(key) })
}

// maxConflictRetries bounds Update's retries on write conflicts; each retry
// waits a little longer so that contending writers spread out.
const maxConflictRetries = 20

// Update runs fn in a read-write transaction and commits it. On a conflict
// with a concurrent transaction (both read and wrote the same keys) it runs
// fn again on fresh data, so fn must not have side effects outside tx. An
// error returned by fn aborts the transaction and is returned unchanged.
// Commit failures are ErrClosed, ErrTxnTooBig or errs.StoreIO envelopes;
// errs.DiskFull (nothing written) when the disk lacks the room for the
// transaction plus the store's margin.
func (s *Store) Update(fn func(tx *Tx) error) error {
	if s.db.IsClosed() {
		return ErrClosed
	}
	for attempt := 0; ; attempt++ {
		txn := s.db.NewTransaction(true)
		tx := &Tx{txn: txn}
		if err := fn(tx); err != nil {
			txn.Discard()
			return err
		}
		if err := s.space.admit(txBytes(tx.size, tx.entries)); err != nil {
			txn.Discard()
			return err
		}
		err := txn.Commit()
		if err == nil {
			return nil
		}
		if errors.Is(err, badger.ErrConflict) && attempt < maxConflictRetries {
			time.Sleep(time.Duration(rand.IntN(1+attempt)*200) * time.Microsecond)
			continue
		}
		return s.opError("commit", err)
	}
}

// View runs fn in a read-only transaction over a consistent snapshot. An
// error returned by fn is returned unchanged.
func (s *Store) View(fn func(tx *Tx) error) error {
	if s.db.IsClosed() {
		return ErrClosed
	}
	txn := s.db.NewTransaction(false)
	defer txn.Discard()
	return fn(&Tx{txn: txn})
}

// Scan calls fn for every key with prefix, in key order, with copies of the
// key and value. An error from fn stops the scan and is returned.
func (s *Store) Scan(prefix []byte, fn func(key, val []byte) error) error {
	return s.View(func(tx *Tx) error { return tx.Scan(prefix, fn) })
}

// ScanReverse is Scan in descending key order (newest first for sessidx/).
func (s *Store) ScanReverse(prefix []byte, fn func(key, val []byte) error) error {
	return s.View(func(tx *Tx) error { return tx.ScanReverse(prefix, fn) })
}

// opError turns a badger failure into the store's sentinels or an envelope.
func (s *Store) opError(op string, err error) error {
	switch {
	case errors.Is(err, badger.ErrDBClosed), errors.Is(err, badger.ErrBlockedWrites):
		return fmt.Errorf("%s: %w", op, ErrClosed)
	case errors.Is(err, badger.ErrTxnTooBig):
		return fmt.Errorf("%s: %w", op, ErrTxnTooBig)
	}
	return errs.Wrap(err, errs.StoreIO, "%s in store %s: %v", op, s.dir, err).WithEvidence("dir", s.dir)
}
