//go:build !unix && !windows

package config

import "os"

// KeepFilesPrivate does nothing where there is no umask: files take the
// access rules of the directory they are created in.
func KeepFilesPrivate() {}

// MakePrivate does nothing here: there are no per-user access rules.
func MakePrivate(string) error { return nil }

// CheckPrivate accepts every file here: there are no per-user access rules.
func CheckPrivate(string) error { return nil }

// ReplaceFile renames from over to.
func ReplaceFile(from, to string) error { return os.Rename(from, to) }

func protectDataDir(string) error { return nil }
