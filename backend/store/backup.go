package store

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
)

// Rolling backups of the store: badger's backup stream (every key's newest
// value) in one file per backup, in a backups directory beside the store.
//
//	backups/history-20261201T183015.123Z.backup         one backup, named for when it was taken (UTC)
//	backups/history-20261201T183015.123Z.backup.sha256  its SHA-256 (hex), checked before a restore
//	backups/.history-*.tmp                               a backup being written; renamed when complete
const (
	// KeepBackups is how many backups a rotation keeps, newest first.
	KeepBackups = 3
	// BackupEvery is the age of the newest backup past which BackupIfDue
	// takes one.
	BackupEvery = 24 * time.Hour

	backupPrefix  = "history-"
	backupSuffix  = ".backup"
	backupStamp   = "20060102T150405.000Z"
	backupTmpGlob = ".history-*.tmp"
	// ChecksumSuffix names the file beside a backup holding its SHA-256.
	ChecksumSuffix = ".sha256"
)

// BackupFile is one complete backup.
type BackupFile struct {
	Path  string
	Taken time.Time // from the file's name, UTC
	Size  int64
}

// BackupName is the file name of a backup taken at t.
func BackupName(t time.Time) string {
	return backupPrefix + t.UTC().Format(backupStamp) + backupSuffix
}

// Backups lists the complete backups in dir, newest first; a missing dir
// has none. Files that are not named like a backup are ignored. Errors:
// errs.StoreIO when dir cannot be read.
func Backups(dir string) ([]BackupFile, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Wrap(err, errs.StoreIO, "list backups in %s: %v", dir, rootCause(err)).WithEvidence("dir", dir)
	}
	var out []BackupFile
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, backupPrefix) || !strings.HasSuffix(name, backupSuffix) {
			continue
		}
		taken, err := time.Parse(backupStamp, strings.TrimSuffix(strings.TrimPrefix(name, backupPrefix), backupSuffix))
		if err != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, BackupFile{Path: filepath.Join(dir, name), Taken: taken.UTC(), Size: info.Size()})
	}
	slices.SortFunc(out, func(a, b BackupFile) int { return b.Taken.Compare(a.Taken) })
	return out, nil
}

// Backup writes a backup of the whole store into dir (created 0700), as
// history-<UTC time>.backup (0600). The file is written under a temporary
// name, synced and renamed, so dir never holds half a backup; then only the
// newest KeepBackups backups are kept. The store stays usable meanwhile:
// the backup is a consistent snapshot.
//
// Errors: ErrClosed; errs.DiskFull when twice the history's tables and
// value logs would not leave the store's margin free (checked before a byte
// is written) or the disk fills meanwhile; errs.StoreIO (evidence "dir")
// when the backup cannot be written or a stale one removed;
// errs.Cancelled when ctx ends first.
func (s *Store) Backup(ctx context.Context, dir string) (BackupFile, error) {
	if err := ctx.Err(); err != nil {
		return BackupFile{}, errs.From(err)
	}
	if s.db.IsClosed() {
		return BackupFile{}, ErrClosed
	}
	// A backup is written on the disk that holds the store: it must not
	// eat the margin that keeps badger's own writes from a full disk. The
	// stream can be larger than the compressed tables, hence twice.
	if err := s.space.admit(2 * s.historyBytes()); err != nil {
		return BackupFile{}, err
	}
	ioErr := func(err error, what string) error {
		if isNoSpace(err) {
			return errs.Wrap(err, errs.DiskFull, "%s in %s: the disk is full", what, dir).WithEvidence("dir", dir).
				WithHint("free space on the disk that holds %s (%s); the history itself is unchanged", dir, platform.FreeSpace(platform.GOOS, dir))
		}
		return errs.Wrap(err, errs.StoreIO, "%s in %s: %v", what, dir, rootCause(err)).WithEvidence("dir", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return BackupFile{}, ioErr(err, "create backups directory")
	}
	// Only the store's holder writes backups, so any temporary file is
	// left over from a backup that was cut short.
	if stale, err := filepath.Glob(filepath.Join(dir, backupTmpGlob)); err == nil {
		for _, f := range stale {
			_ = os.Remove(f)
		}
	}
	taken := time.Now().UTC().Truncate(time.Millisecond)
	tmp, err := os.CreateTemp(dir, backupTmpGlob)
	if err != nil {
		return BackupFile{}, ioErr(err, "write backup")
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	sum := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(tmp, sum), 256<<10)
	if _, err := s.db.Backup(w, 0); err != nil {
		tmp.Close()
		return BackupFile{}, ioErr(err, "write backup")
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return BackupFile{}, ioErr(err, "write backup")
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return BackupFile{}, ioErr(err, "write backup")
	}
	info, err := tmp.Stat()
	if err != nil {
		tmp.Close()
		return BackupFile{}, ioErr(err, "write backup")
	}
	if err := tmp.Close(); err != nil {
		return BackupFile{}, ioErr(err, "write backup")
	}
	final := filepath.Join(dir, BackupName(taken))
	// The checksum first: a listed backup always has it.
	if err := writeChecksum(dir, final+ChecksumSuffix, hex.EncodeToString(sum.Sum(nil))); err != nil {
		return BackupFile{}, ioErr(err, "write backup checksum")
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		_ = os.Remove(final + ChecksumSuffix)
		return BackupFile{}, ioErr(err, "write backup")
	}
	syncDir(dir)
	if err := rotateBackups(dir, KeepBackups); err != nil {
		return BackupFile{}, err
	}
	return BackupFile{Path: final, Taken: taken, Size: info.Size()}, nil
}

// BackupIfDue takes a backup into dir when its newest backup is older than
// every (or there is none), and reports whether it took one. Errors: those
// of Backups and Backup.
func (s *Store) BackupIfDue(ctx context.Context, dir string, every time.Duration) (BackupFile, bool, error) {
	have, err := Backups(dir)
	if err != nil {
		return BackupFile{}, false, err
	}
	if len(have) > 0 && time.Since(have[0].Taken) < every {
		return BackupFile{}, false, nil
	}
	b, err := s.Backup(ctx, dir)
	return b, err == nil, err
}

// rotateBackups removes all but the newest keep backups in dir.
func rotateBackups(dir string, keep int) error {
	have, err := Backups(dir)
	if err != nil {
		return err
	}
	for _, b := range have[min(keep, len(have)):] {
		if err := os.Remove(b.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return errs.Wrap(err, errs.StoreIO, "remove old backup %s: %v", b.Path, rootCause(err)).WithEvidence("dir", dir)
		}
		_ = os.Remove(b.Path + ChecksumSuffix)
	}
	return nil
}

// syncDir makes a rename in dir durable; a failure only weakens durability
// against power loss, so it is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// countKeys counts the keys with prefix without reading their values.
func (s *Store) countKeys(prefix []byte) (int, error) {
	n := 0
	err := s.View(func(tx *Tx) error {
		opts := badger.DefaultIteratorOptions
		opts.PrefetchValues = false
		opts.Prefix = prefix
		it := tx.txn.NewIterator(opts)
		defer it.Close()
		for it.Rewind(); it.ValidForPrefix(prefix); it.Next() {
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count keys: %w", err)
	}
	return n, nil
}

// historyBytes is the disk space the store's tables and value logs take: a
// backup stream holds at most what they hold.
func (s *Store) historyBytes() uint64 {
	var n uint64
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); ext != ".sst" && ext != ".vlog" {
			continue
		}
		if b, err := allocated(filepath.Join(s.dir, e.Name())); err == nil {
			n += b
		}
	}
	return n
}

// writeChecksum writes sum (and a newline) to path through a temporary
// file in dir, synced and renamed.
func writeChecksum(dir, path, sum string) error {
	tmp, err := os.CreateTemp(dir, backupTmpGlob)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if _, err := tmp.WriteString(sum + "\n"); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// checkChecksum compares backup with the SHA-256 its checksum file holds.
// It reports whether there was one to check. Errors: errs.StoreCorrupt
// (evidence "file") when they differ or the checksum file is not one;
// errs.BadInput when a file cannot be read.
func checkChecksum(backup string) (bool, error) {
	want, err := os.ReadFile(backup + ChecksumSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, errs.Wrap(err, errs.BadInput, "read backup checksum %s: %v", backup+ChecksumSuffix, rootCause(err)).WithEvidence("file", backup+ChecksumSuffix)
	}
	f, err := os.Open(backup)
	if err != nil {
		return false, errs.Wrap(err, errs.BadInput, "read backup %s: %v", backup, rootCause(err)).WithEvidence("file", backup)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, errs.Wrap(err, errs.BadInput, "read backup %s: %v", backup, rootCause(err)).WithEvidence("file", backup)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != strings.TrimSpace(string(want)) {
		return false, errs.New(errs.StoreCorrupt, "the backup %s was damaged after it was written: its SHA-256 is not the one recorded in %s", backup, backup+ChecksumSuffix).
			WithEvidence("file", backup).
			WithHint("pick another backup from the backups directory (`ferry sessions restore FILE`)")
	}
	return true, nil
}
