package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Restored is what Restore did.
type Restored struct {
	From        string // the backup file read
	StoreDir    string // the store directory, now holding the restored store
	Sessions    int    // session records in the restored store
	Keys        int    // all keys in the restored store
	DamagedDir  string // where the previous store directory was moved; "" when there was none
	Checksummed bool   // the backup matched the SHA-256 recorded beside it (false: none was recorded)
}

// Restore replaces the store in storeDir with the content of the backup
// file: it loads the backup into a fresh directory beside storeDir
// (<storeDir>.restoring-<time>), opens it as a store (verifying it and
// bringing its schema up to date), then moves storeDir aside as
// <storeDir>.damaged-<UTC time> — never deleting it — and puts the fresh
// store in its place, and opens it once more to count what it holds. The
// store is not touched until the backup has loaded; opts are Open's.
//
// A backup with its checksum file beside it (backup + ChecksumSuffix, as
// Backup writes it) must match it before anything is loaded.
//
// Errors: errs.BadInput when backup is not a readable file; errs.StoreBusy
// while another process holds storeDir (nothing is moved); errs.StoreCorrupt
// (evidence "file") when the backup does not match its checksum or does
// not load; Open's errors for the
// restored store; errs.StoreIO when a directory cannot be moved.
func Restore(ctx context.Context, storeDir, backup string, opts ...Option) (Restored, error) {
	var r Restored
	var err error
	if storeDir, err = filepath.Abs(storeDir); err != nil {
		return r, errs.Wrap(err, errs.BadInput, "resolve store directory %s: %v", storeDir, err)
	}
	if backup, err = filepath.Abs(backup); err != nil {
		return r, errs.Wrap(err, errs.BadInput, "resolve backup %s: %v", backup, err)
	}
	r.From, r.StoreDir = backup, storeDir
	if st, err := os.Stat(backup); err != nil || !st.Mode().IsRegular() {
		return r, errs.New(errs.BadInput, "the backup %s is not a readable file", backup).
			WithEvidence("file", backup).
			WithHint("name a file from the backups directory, or give none for the newest")
	}
	exists := true
	if _, err := os.Stat(storeDir); errors.Is(err, fs.ErrNotExist) {
		exists = false
	}
	if exists && canProbeLock {
		if locked, err := dirLocked(storeDir); err == nil && locked {
			return r, busyError(storeDir)
		}
	}
	if err := ctx.Err(); err != nil {
		return r, errs.From(err)
	}

	if r.Checksummed, err = checkChecksum(backup); err != nil {
		return r, err
	}

	stamp := time.Now().UTC().Format("20060102T150405Z")
	fresh := unusedName(storeDir + ".restoring-" + stamp)
	if err := loadBackup(fresh, backup); err != nil {
		_ = os.RemoveAll(fresh) // only what this call created
		return r, err
	}
	if _, err := countStore(ctx, fresh, opts); err != nil {
		_ = os.RemoveAll(fresh)
		return r, err
	}

	if exists {
		release, held, err := holdDir(storeDir)
		if err != nil {
			_ = os.RemoveAll(fresh)
			return r, errs.Wrap(err, errs.StoreIO, "lock store directory %s: %v", storeDir, err).WithEvidence("dir", storeDir)
		}
		if held {
			_ = os.RemoveAll(fresh)
			return r, busyError(storeDir)
		}
		r.DamagedDir = unusedName(storeDir + ".damaged-" + stamp)
		err = os.Rename(storeDir, r.DamagedDir)
		release()
		if err != nil {
			_ = os.RemoveAll(fresh)
			return r, errs.Wrap(err, errs.StoreIO, "move the store %s aside: %v", storeDir, rootCause(err)).WithEvidence("dir", storeDir)
		}
	}
	if err := os.Rename(fresh, storeDir); err != nil {
		return r, errs.Wrap(err, errs.StoreIO, "put the restored store %s in place of %s: %v", fresh, storeDir, rootCause(err)).
			WithEvidence("dir", storeDir).WithEvidence("restored", fresh)
	}
	syncDir(filepath.Dir(storeDir))
	counts, err := countStore(ctx, storeDir, opts)
	if err != nil {
		return r, err
	}
	r.Sessions, r.Keys = counts.sessions, counts.keys
	return r, nil
}

// unusedName is name, or name-2, name-3 … when name exists: two restores
// in one second keep both stores they replaced.
func unusedName(name string) string {
	for i := 1; ; i++ {
		try := name
		if i > 1 {
			try = fmt.Sprintf("%s-%d", name, i)
		}
		if _, err := os.Lstat(try); errors.Is(err, fs.ErrNotExist) {
			return try
		}
	}
}

// checkFraming walks the records of a backup file (each an 8-byte
// little-endian length and that many bytes) without reading them: badger's
// Load would allocate whatever length a file that is not a backup states.
// Errors: errs.StoreCorrupt (evidence "file") for an empty file or a record
// running past the end; errs.BadInput when the file cannot be read.
func checkFraming(backup string) error {
	f, err := os.Open(backup)
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "read backup %s: %v", backup, rootCause(err)).WithEvidence("file", backup)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "read backup %s: %v", backup, rootCause(err)).WithEvidence("file", backup)
	}
	bad := func(format string, args ...any) error {
		return errs.New(errs.StoreCorrupt, "%s is not a complete backup of Ferry's history: %s", backup, fmt.Sprintf(format, args...)).
			WithEvidence("file", backup).
			WithHint("pick another backup from the backups directory (`ferry sessions restore FILE`)")
	}
	size := st.Size()
	if size == 0 {
		return bad("it is empty")
	}
	var hdr [8]byte
	for off := int64(0); off < size; {
		if size-off < int64(len(hdr)) {
			return bad("it ends inside a record header at byte %d", off)
		}
		if _, err := f.ReadAt(hdr[:], off); err != nil {
			return errs.Wrap(err, errs.BadInput, "read backup %s: %v", backup, rootCause(err)).WithEvidence("file", backup)
		}
		n := binary.LittleEndian.Uint64(hdr[:])
		if n > uint64(size-off-int64(len(hdr))) {
			return bad("the record at byte %d is %d bytes long, past the end of the file", off, n)
		}
		off += int64(len(hdr)) + int64(n)
	}
	return nil
}

// loadBackup creates dir as a new badger store and loads the backup into it.
func loadBackup(dir, backup string) error {
	if err := checkFraming(backup); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errs.Wrap(err, errs.DataDirUnwritable, "create %s: %v", dir, rootCause(err)).WithEvidence("dir", dir)
	}
	db, err := openBadger(dir, defaultConfig())
	if err != nil {
		return classifyOpenError(dir, err)
	}
	f, err := os.Open(backup)
	if err != nil {
		db.Close()
		return errs.Wrap(err, errs.BadInput, "read backup %s: %v", backup, rootCause(err)).WithEvidence("file", backup)
	}
	defer f.Close()
	if err := db.Load(f, 256); err != nil {
		db.Close()
		return errs.Wrap(err, errs.StoreCorrupt, "the backup %s does not load: %v", backup, err).
			WithEvidence("file", backup).
			WithHint("pick another backup from the backups directory (`ferry sessions restore FILE`)")
	}
	if err := db.Close(); err != nil {
		return errs.Wrap(err, errs.StoreIO, "close restored store %s: %v", dir, err).WithEvidence("dir", dir)
	}
	return nil
}

type storeCounts struct{ sessions, keys int }

// countStore opens the store in dir, counts its sessions and keys and closes
// it.
func countStore(ctx context.Context, dir string, opts []Option) (storeCounts, error) {
	var c storeCounts
	s, err := Open(ctx, dir, opts...)
	if err != nil {
		return c, err
	}
	defer s.Close()
	if c.sessions, err = s.countKeys(PrefixSession); err != nil {
		return c, err
	}
	if c.keys, err = s.countKeys(nil); err != nil {
		return c, err
	}
	return c, s.Close()
}
