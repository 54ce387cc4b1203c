package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/store"
)

// StoreClients keeps the hub's paired clients in the store under
// client/<id>, tokens only as SHA-256 digests, so that pairings survive a
// restart of the owner. It implements hub.ClientStore.
type StoreClients struct{ st *store.Store }

var _ hub.ClientStore = StoreClients{}

// HubClients returns the client registry in this core's store.
func (c *Core) HubClients() StoreClients { return StoreClients{st: c.Store()} }

// Put creates or replaces rec. Errors: errs.BadInput for an invalid id;
// store failures.
func (s StoreClients) Put(ctx context.Context, rec hub.ClientRecord) error {
	if err := store.ValidID(rec.ID); err != nil {
		return errs.Wrap(err, errs.BadInput, "client id: %v", err)
	}
	val, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode client %s: %w", rec.ID, err)
	}
	if err := s.st.Put(store.ClientKey(rec.ID), val); err != nil {
		return fmt.Errorf("store client %s: %w", rec.ID, err)
	}
	return nil
}

// Get returns the client id. Errors: errs.HubNotFound; errs.StoreCorrupt.
func (s StoreClients) Get(ctx context.Context, id string) (hub.ClientRecord, error) {
	if store.ValidID(id) != nil {
		return hub.ClientRecord{}, errs.New(errs.HubNotFound, "no paired client has id %q", clipText(id, 80))
	}
	val, err := s.st.Get(store.ClientKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return hub.ClientRecord{}, errs.New(errs.HubNotFound, "no paired client has id %q", id)
	}
	if err != nil {
		return hub.ClientRecord{}, err
	}
	var rec hub.ClientRecord
	if err := json.Unmarshal(val, &rec); err != nil {
		return hub.ClientRecord{}, errs.Wrap(err, errs.StoreCorrupt, "decode client %s: %v", id, err).WithStage(errs.StageStore)
	}
	return rec, nil
}

// List returns every client, oldest first. Errors: errs.StoreCorrupt;
// store failures.
func (s StoreClients) List(ctx context.Context) ([]hub.ClientRecord, error) {
	var out []hub.ClientRecord
	err := s.st.Scan(store.PrefixClient, func(key, val []byte) error {
		var rec hub.ClientRecord
		if err := json.Unmarshal(val, &rec); err != nil {
			return errs.Wrap(err, errs.StoreCorrupt, "decode client %q: %v", key, err).WithStage(errs.StageStore)
		}
		out = append(out, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sortClients(out)
	return out, nil
}

func sortClients(recs []hub.ClientRecord) {
	slices.SortFunc(recs, func(a, b hub.ClientRecord) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}
