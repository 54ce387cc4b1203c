//go:build unix

package config

import (
	"fmt"
	"os"
	"syscall"
)

// KeepFilesPrivate makes every file and directory this process creates
// from now on — the store's tables and logs, the browser profile (the
// launched browser inherits it), receipts, sidecars, saved zips — readable
// by the user alone (0600 files, 0700 directories), whatever mode the code
// that creates it asks for. Both of Ferry's binaries call it first thing:
// the data directory holds the user's prompts, answers and the sites'
// cookies.
func KeepFilesPrivate() { syscall.Umask(0o077) }

// MakePrivate makes path readable and writable by the user alone: mode
// 0600 for a file, 0700 for a directory.
func MakePrivate(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	mode := os.FileMode(0o600)
	if fi.IsDir() {
		mode = 0o700
	}
	if err := os.Chmod(path, mode); err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	return nil
}

// CheckPrivate reports, as an error naming who else may read path, when
// its mode lets the group or others in. Errors: ErrNotPrivate (wrapped)
// for such a mode, or the error of stat.
func CheckPrivate(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o: %w", path, perm, ErrNotPrivate)
	}
	return nil
}

// ReplaceFile renames from over to, atomically: a reader of to sees the
// old file or the new one.
func ReplaceFile(from, to string) error { return os.Rename(from, to) }

// protectDataDir needs nothing on Unix: MkdirAll made the directory 0700
// and KeepFilesPrivate's umask keeps what is created in it private.
func protectDataDir(string) error { return nil }
