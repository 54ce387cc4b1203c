//go:build unix

package config

import "syscall"

// KeepFilesPrivate makes every file and directory this process creates
// from now on — the store's tables and logs, the browser profile (the
// launched browser inherits it), receipts, sidecars, saved zips — readable
// by the user alone (0600 files, 0700 directories), whatever mode the code
// that creates it asks for. Both of Ferry's binaries call it first thing:
// the data directory holds the user's prompts, answers and the sites'
// cookies.
func KeepFilesPrivate() { syscall.Umask(0o077) }
