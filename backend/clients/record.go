package clients

import (
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Record is a client as stored under client/<id>: its token only as a
// digest.
type Record struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	TokenDigest service.Digest `json:"tokenDigest"`
	AutoApprove bool           `json:"autoApprove"`
	CreatedAt   time.Time      `json:"createdAt"`
	RevokedAt   *time.Time     `json:"revokedAt,omitempty"`
	// ExistingConversations is the user's grant that the client's jobs may
	// name the user's tabs, conversations and runs (off by default: an
	// agent works in tabs and conversations its own jobs opened).
	ExistingConversations bool `json:"existingConversations,omitempty"`
	// Kind is the kind of an agent client made by EnsureAgent (no token:
	// the owner's token acts as it); "" for a paired client.
	Kind string `json:"kind,omitempty"`
	// FileRoots are the absolute directories under which the client's jobs
	// may name files to attach (none: no file), set by the user.
	FileRoots []string `json:"fileRoots,omitempty"`
}

// Info is the record without its digest, as the service shows it.
func (r Record) Info() service.ClientInfo {
	return service.ClientInfo{ID: r.ID, Name: r.Name, AutoApprove: r.AutoApprove, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt,
		ExistingConversations: r.ExistingConversations, Kind: r.Kind, FileRoots: append([]string(nil), r.FileRoots...)}
}

// CleanName trims a client's name and checks it. Errors: errs.BadInput
// unless it is 1 to 64 printable characters.
func CleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > 64 || !utf8.ValidString(name) ||
		strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return "", errs.New(errs.BadInput, "the client name must be 1 to 64 printable characters").
			WithHint("name the client after the tool, e.g. \"claude-code on laptop\"")
	}
	return name, nil
}

// CleanFileRoots checks and cleans file roots: absolute paths, each once.
// Errors: errs.BadInput naming a root that is not absolute.
func CleanFileRoots(roots []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			return nil, errs.New(errs.BadInput, "file root %q is not an absolute path", r).WithHint("give each root as an absolute directory")
		}
		c := filepath.Clean(r)
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}
