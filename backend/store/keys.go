package store

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Key prefixes of the layout in the package documentation.
var (
	KeySchema       = []byte("meta/schema")
	PrefixMigration = []byte("meta/migration/")
	PrefixSession   = []byte("session/")
	PrefixSessIdx   = []byte("sessidx/")
	PrefixJournal   = []byte("journal/")
	PrefixArtifact  = []byte("artifact/")
	PrefixTemplate  = []byte("template/")
	PrefixClient    = []byte("client/")
	PrefixHubJob    = []byte("hubjob/")
	PrefixSnapshot  = []byte("snapshot/")
	PrefixLogin     = []byte("login/")
)

// ValidID reports whether id may be used inside a key: 1 to 128 characters
// from [A-Za-z0-9._-], so that no id contains the '/' separator. Errors name
// the offending character.
func ValidID(id string) error {
	if id == "" {
		return fmt.Errorf("id is empty")
	}
	if len(id) > 128 {
		return fmt.Errorf("id is %d characters long, limit 128", len(id))
	}
	for i, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return fmt.Errorf("id %q has %q at position %d; allowed: letters, digits, '.', '_', '-'", id, r, i)
		}
	}
	return nil
}

func join(prefix []byte, parts ...[]byte) []byte {
	n := len(prefix)
	for _, p := range parts {
		n += len(p) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, prefix...)
	for i, p := range parts {
		if i > 0 {
			out = append(out, '/')
		}
		out = append(out, p...)
	}
	return out
}

func be64(v uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return b[:]
}

// HubJobKey is hubjob/<id>: a job of the local API (package core).
func HubJobKey(id string) []byte { return join(PrefixHubJob, []byte(id)) }

// SnapshotKey is snapshot/<session id>: the tab at a run's failure (package
// job).
func SnapshotKey(id string) []byte { return join(PrefixSnapshot, []byte(id)) }

// MigrationKey is meta/migration/<to, six digits>.
func MigrationKey(to int) []byte { return fmt.Appendf(nil, "%s%06d", PrefixMigration, to) }

// SessionKey is session/<id>.
func SessionKey(id string) []byte { return join(PrefixSession, []byte(id)) }

// SessionIndexKey is sessidx/<created, ns since the epoch, 8 bytes big-endian>/<id>:
// scanning PrefixSessIdx lists sessions oldest first, ScanReverse newest first.
func SessionIndexKey(created time.Time, id string) []byte {
	return join(PrefixSessIdx, be64(uint64(created.UnixNano())), []byte(id))
}

// ParseSessionIndexKey returns the creation time and id in a SessionIndexKey.
func ParseSessionIndexKey(key []byte) (time.Time, string, error) {
	rest := key[min(len(key), len(PrefixSessIdx)):]
	if len(key) < len(PrefixSessIdx)+10 || string(key[:len(PrefixSessIdx)]) != string(PrefixSessIdx) || rest[8] != '/' {
		return time.Time{}, "", fmt.Errorf("parse session index key %s: not sessidx/<8 bytes>/<id>", keyText(key))
	}
	ns := int64(binary.BigEndian.Uint64(rest[:8]))
	return time.Unix(0, ns).UTC(), string(rest[9:]), nil
}

// JournalPrefix is journal/<id>/, the prefix of all journal entries of a
// session.
func JournalPrefix(id string) []byte { return append(join(PrefixJournal, []byte(id)), '/') }

// JournalKey is journal/<id>/<seq, 8 bytes big-endian>: entries scan in seq
// order.
func JournalKey(id string, seq uint64) []byte { return append(JournalPrefix(id), be64(seq)...) }

// ArtifactKey is artifact/<sha256 hex>.
func ArtifactKey(sha256Hex string) []byte { return join(PrefixArtifact, []byte(sha256Hex)) }

// TemplateKey is template/<name>.
func TemplateKey(name string) []byte { return join(PrefixTemplate, []byte(name)) }

// ClientKey is client/<id>.
func ClientKey(id string) []byte { return join(PrefixClient, []byte(id)) }

// LoginKey is login/<site id>: when Ferry last saw a user logged in to the
// site, or logged out of it (package core).
func LoginKey(site string) []byte { return join(PrefixLogin, []byte(site)) }
