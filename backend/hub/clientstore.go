package hub

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// ClientRecord is a paired client as stored: its token only as a digest.
type ClientRecord struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	TokenDigest Digest     `json:"tokenDigest"`
	AutoApprove bool       `json:"autoApprove"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt,omitempty"`
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

// Info is the record without its digest, as the API lists it.
func (r ClientRecord) Info() ClientInfo {
	return ClientInfo{ID: r.ID, Name: r.Name, AutoApprove: r.AutoApprove, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt,
		ExistingConversations: r.ExistingConversations, Kind: r.Kind, FileRoots: append([]string(nil), r.FileRoots...)}
}

// ClientStore keeps paired clients. Implementations must be safe for
// concurrent use. Get returns an errs envelope with code errs.HubNotFound
// for an unknown id.
type ClientStore interface {
	Put(ctx context.Context, rec ClientRecord) error
	Get(ctx context.Context, id string) (ClientRecord, error)
	List(ctx context.Context) ([]ClientRecord, error)
}

// MemoryClientStore is a ClientStore in memory: pairings last as long as the
// process. The zero value is ready to use.
type MemoryClientStore struct {
	mu   sync.RWMutex
	recs map[string]ClientRecord
}

// Put creates or replaces the record with rec.ID.
func (m *MemoryClientStore) Put(_ context.Context, rec ClientRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[string]ClientRecord{}
	}
	m.recs[rec.ID] = rec
	return nil
}

// Get returns the record with id, or errs.HubNotFound.
func (m *MemoryClientStore) Get(_ context.Context, id string) (ClientRecord, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	rec, ok := m.recs[id]
	if !ok {
		return ClientRecord{}, errs.New(errs.HubNotFound, "no paired client has id %q", id)
	}
	return rec, nil
}

// List returns every record, oldest first.
func (m *MemoryClientStore) List(_ context.Context) ([]ClientRecord, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]ClientRecord, 0, len(m.recs))
	for _, r := range m.recs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

var _ ClientStore = (*MemoryClientStore)(nil)
