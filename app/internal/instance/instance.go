// Package instance keeps one Ferry window per data directory (Guard): on
// Windows a named mutex, whose holder a second start asks to come
// forward; elsewhere the store's own lock, which refuses a second owner.
package instance

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// Guard keeps one Ferry window per data directory: a second start
// for the same directory brings the first window forward and exits.
type Guard interface {
	// Claim makes this process the window of dataDir (first), or, when
	// another process already is, asks that one to show its window (unless
	// quiet: a start at login while Ferry runs asks nothing) and returns
	// first false. onSecond runs in the first process each time a later
	// start asks it to show itself. release gives the claim up.
	Claim(dataDir string, quiet bool, onSecond func()) (first bool, release func(), err error)
}

// instanceName is the name of the Windows kernel objects that stand for
// the window of dataDir in the user's session: Local\Ferry-<hash>, the
// hash of the directory as Windows compares paths (case-insensitive, either
// slash, no trailing separator), so that two spellings of one directory
// are one Ferry and two directories are two.
func instanceName(dataDir string) string {
	p := strings.ReplaceAll(dataDir, "/", `\`)
	p = strings.TrimRight(p, `\`)
	p = strings.ToLower(filepath.Clean(p))
	sum := sha256.Sum256([]byte(p))
	return `Local\Ferry-` + hex.EncodeToString(sum[:8])
}
