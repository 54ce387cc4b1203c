package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Save validates s and writes it to path atomically with mode 0600: a
// temporary file in the same directory is written, fsynced and renamed over
// path, then the directory is fsynced, so a crash leaves the old file or the
// new one, never a mix. A symlink at path is followed and its target
// replaced. Errors: the errs.ConfigInvalid envelope from Validate (with
// evidence "file"), or errs.DataDirUnwritable naming the directory.
func Save(path string, s Settings) error {
	if err := s.Validate(); err != nil {
		if e := errs.From(err); e.Code == errs.ConfigInvalid {
			return e.WithEvidence("file", path)
		}
		return err
	}
	if s.Browser.ExtraArgs == nil {
		s.Browser.ExtraArgs = []string{}
	}
	if s.Sites == nil {
		s.Sites = []json.RawMessage{}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return errs.Wrap(err, errs.ConfigInvalid, "encode settings for %s: %v", path, err).WithEvidence("file", path)
	}
	return writeFileAtomic(path, append(b, '\n'))
}

// Reset keeps the current settings file as path.bak (or .bak.1, .bak.2, ...
// when older backups exist: a backup is never overwritten) and writes the
// defaults to path. It returns the backup's path, "" when there was no file.
// Errors: errs.DataDirUnwritable naming the directory.
func Reset(path string) (backup string, err error) {
	cur, err := os.Open(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", unwritableConfig(path, err)
	default:
		backup, err = copyToNewBackup(cur, path)
		cur.Close()
		if err != nil {
			return "", err
		}
	}
	if err := Save(path, Defaults()); err != nil {
		return backup, err
	}
	return backup, nil
}

// copyToNewBackup copies src into the first of path.bak, path.bak.1, ...
// that does not exist, creating it exclusively so that a backup is never
// replaced, even by a concurrent Reset.
func copyToNewBackup(src *os.File, path string) (string, error) {
	for i := 0; i < 1000; i++ {
		name := path + ".bak"
		if i > 0 {
			name = fmt.Sprintf("%s.bak.%d", path, i)
		}
		dst, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", unwritableConfig(path, err)
		}
		_, err = io.Copy(dst, src)
		if err == nil {
			err = dst.Sync()
		}
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", unwritableConfig(path, err)
		}
		return name, nil
	}
	return "", errs.New(errs.DataDirUnwritable, "settings file %s already has 1000 backups", path).
		WithEvidence("file", path).
		WithHint("delete old %s.bak.* files", filepath.Base(path))
}

// writeFileAtomic replaces path with data: temp file in the same directory
// (private to the user), fsync, rename (ReplaceFile, which outlasts a virus
// scanner holding the old file on Windows), fsync of the directory.
func writeFileAtomic(path string, data []byte) (err error) {
	if target, lerr := filepath.EvalSymlinks(path); lerr == nil {
		path = target
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return unwritableConfig(path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return unwritableConfig(path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := MakePrivate(tmp.Name()); err != nil {
		return unwritableConfig(path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return unwritableConfig(path, err)
	}
	if err := tmp.Sync(); err != nil {
		return unwritableConfig(path, err)
	}
	if err := tmp.Close(); err != nil {
		return unwritableConfig(path, err)
	}
	if err := ReplaceFile(tmp.Name(), path); err != nil {
		return unwritableConfig(path, err)
	}
	// The rename is durable only once the directory entry is on disk.
	// Windows cannot open a directory for syncing; NTFS journals renames.
	if runtime.GOOS != "windows" {
		d, err := os.Open(dir)
		if err != nil {
			return unwritableConfig(path, err)
		}
		serr := d.Sync()
		d.Close()
		if serr != nil {
			return unwritableConfig(path, serr)
		}
	}
	return nil
}

func unwritableConfig(path string, err error) error {
	dir := filepath.Dir(path)
	return errs.Wrap(err, errs.DataDirUnwritable, "write settings file %s: %v", path, rootCause(err)).
		WithEvidence("file", path).
		WithEvidence("dir", dir).
		WithHint("make %s writable, or set %s to a writable directory", dir, EnvConfigDir)
}
