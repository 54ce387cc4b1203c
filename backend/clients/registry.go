package clients

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
)

// Registry keeps the clients in a store under client/<id>, tokens only as
// SHA-256 digests, so that pairings survive a restart of the owner. It is
// safe for concurrent use; one Registry serves one store.
type Registry struct {
	st  *store.Store
	now func() time.Time

	mu sync.Mutex // EnsureAgent's look-up and creation are one step
}

// New returns the registry of the clients in st.
func New(st *store.Store) *Registry { return &Registry{st: st, now: time.Now} }

// Put creates or replaces rec. Errors: errs.BadInput for an invalid id;
// store failures.
func (r *Registry) Put(ctx context.Context, rec Record) error {
	if err := store.ValidID(rec.ID); err != nil {
		return errs.Wrap(err, errs.BadInput, "client id: %v", err)
	}
	val, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode client %s: %w", rec.ID, err)
	}
	if err := r.st.Put(store.ClientKey(rec.ID), val); err != nil {
		return fmt.Errorf("store client %s: %w", rec.ID, err)
	}
	return nil
}

// Get returns client id, revoked or not. Errors: errs.HubNotFound;
// errs.StoreCorrupt; store failures.
func (r *Registry) Get(ctx context.Context, id string) (Record, error) {
	if store.ValidID(id) != nil {
		return Record{}, errs.New(errs.HubNotFound, "no paired client has id %q", clip(id, 80))
	}
	val, err := r.st.Get(store.ClientKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Record{}, errs.New(errs.HubNotFound, "no paired client has id %q", id)
	}
	if err != nil {
		return Record{}, err
	}
	var rec Record
	if err := json.Unmarshal(val, &rec); err != nil {
		return Record{}, errs.Wrap(err, errs.StoreCorrupt, "decode client %s: %v", id, err).WithStage(errs.StageStore)
	}
	return rec, nil
}

// List returns every client, revoked ones included, oldest first. Errors:
// errs.StoreCorrupt; store failures.
func (r *Registry) List(ctx context.Context) ([]Record, error) {
	var out []Record
	err := r.st.Scan(store.PrefixClient, func(key, val []byte) error {
		var rec Record
		if err := json.Unmarshal(val, &rec); err != nil {
			return errs.Wrap(err, errs.StoreCorrupt, "decode client %q: %v", key, err).WithStage(errs.StageStore)
		}
		out = append(out, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Record) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Active returns client id when it may act: known and not revoked.
// Errors: errs.HubUnauthorized for an unknown or revoked client; store
// failures.
func (r *Registry) Active(ctx context.Context, id string) (Record, error) {
	rec, err := r.Get(ctx, id)
	if errs.Has(err, errs.HubNotFound) {
		return Record{}, errs.New(errs.HubUnauthorized, "no paired client has id %q", clip(id, 80)).WithHint("pair the client first")
	}
	if err != nil {
		return Record{}, err
	}
	if rec.RevokedAt != nil {
		return Record{}, errs.New(errs.HubUnauthorized, "client %q (%s) was revoked", rec.Name, rec.ID).
			WithHint("the user revoked this client in Ferry; pair it again with a new code")
	}
	return rec, nil
}

// Authenticate returns the client whose token tok is. The digests are
// compared in constant time, also for an unknown id. Errors:
// errs.HubUnauthorized for a malformed token, one no client holds, or a
// revoked client's; store failures.
func (r *Registry) Authenticate(ctx context.Context, tok string) (Record, error) {
	id, problem := service.TokenShape(tok)
	if problem != "" {
		return Record{}, errs.New(errs.HubUnauthorized, "%s", problem)
	}
	invalid := errs.New(errs.HubUnauthorized, "the token is not valid for this hub").
		WithHint("read the hub file again (the owner makes a new token at each start), or pair the client again")
	d := service.DigestOf(tok)
	rec, err := r.Get(ctx, id)
	if errs.Has(err, errs.HubNotFound) {
		d.Equal(service.Digest{}) // the same work as for a known id
		return Record{}, invalid
	}
	if err != nil {
		return Record{}, err
	}
	// An agent client made by EnsureAgent has no token: its zero digest
	// matches none.
	if rec.TokenDigest == (service.Digest{}) || !d.Equal(rec.TokenDigest) {
		return Record{}, invalid
	}
	if rec.RevokedAt != nil {
		return Record{}, errs.New(errs.HubUnauthorized, "client %q (%s) was revoked", rec.Name, rec.ID).
			WithHint("pair the client again with a new code from Ferry")
	}
	return rec, nil
}

// Register creates a paired client named name and returns it with its
// token, which is shown this once (only its digest is stored). Errors:
// CleanName's; store failures.
func (r *Registry) Register(ctx context.Context, name string) (Record, string, error) {
	name, err := CleanName(name)
	if err != nil {
		return Record{}, "", err
	}
	id, err := newID()
	if err != nil {
		return Record{}, "", errs.Wrap(err, errs.Internal, "register client: %v", err)
	}
	token, digest, err := service.MintToken(id)
	if err != nil {
		return Record{}, "", errs.Wrap(err, errs.Internal, "register client: %v", err)
	}
	rec := Record{ID: id, Name: name, TokenDigest: digest, CreatedAt: r.now().UTC()}
	if err := r.Put(ctx, rec); err != nil {
		return Record{}, "", err
	}
	return rec, token, nil
}

// Pair redeems a code of codes for a new paired client named req.Name and
// returns its id and token, shown this once. The name is checked first, so
// a bad one does not spend the code. Errors: CleanName's; Pairing.Redeem's
// (errs.PairingCodeInvalid, errs.HubRateLimited); Register's.
func (r *Registry) Pair(ctx context.Context, codes *Pairing, req service.PairRequest) (service.Paired, error) {
	name, err := CleanName(req.Name)
	if err != nil {
		return service.Paired{}, err
	}
	if _, err := codes.Redeem(req.From, req.Code); err != nil {
		return service.Paired{}, err
	}
	rec, token, err := r.Register(ctx, name)
	if err != nil {
		return service.Paired{}, err
	}
	return service.Paired{ClientID: rec.ID, Token: token}, nil
}

// EnsureAgent returns the agent client of req's name and kind, creating it
// without a token (its digest is zero, which no token matches) the first
// time. A revoked one is returned as it is: the user's revocation stands.
// Errors: req.Validate's and CleanName's errs.BadInput; store failures.
func (r *Registry) EnsureAgent(ctx context.Context, req service.EnsureAgentRequest) (Record, error) {
	if err := req.Validate(); err != nil {
		return Record{}, err
	}
	name, err := CleanName(req.Name)
	if err != nil {
		return Record{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	recs, err := r.List(ctx)
	if err != nil {
		return Record{}, err
	}
	for _, rec := range recs {
		if rec.Kind == req.Kind && rec.Name == name {
			return rec, nil
		}
	}
	id, err := newID()
	if err != nil {
		return Record{}, errs.Wrap(err, errs.Internal, "ensure agent client: %v", err)
	}
	rec := Record{ID: id, Name: name, Kind: req.Kind, CreatedAt: r.now().UTC()}
	if err := r.Put(ctx, rec); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// Revoke ends client id's access; revoking twice is harmless. Errors:
// errs.HubNotFound; store failures.
func (r *Registry) Revoke(ctx context.Context, id string) (Record, error) {
	rec, err := r.Get(ctx, id)
	if err != nil {
		return Record{}, err
	}
	if rec.RevokedAt == nil {
		now := r.now().UTC()
		rec.RevokedAt = &now
		if err := r.Put(ctx, rec); err != nil {
			return Record{}, err
		}
	}
	return rec, nil
}

// Edit applies edit to client id, which must not be revoked. Errors:
// errs.HubNotFound; errs.BadInput for a revoked client; store failures.
func (r *Registry) Edit(ctx context.Context, id string, edit func(*Record)) (Record, error) {
	rec, err := r.Get(ctx, id)
	if err != nil {
		return Record{}, err
	}
	if rec.RevokedAt != nil {
		return Record{}, errs.New(errs.BadInput, "client %q was revoked; pair it again instead", rec.ID).
			WithHint("pair the client again for a new token")
	}
	edit(&rec)
	if err := r.Put(ctx, rec); err != nil {
		return Record{}, err
	}
	return rec, nil
}

// newID returns a random, non-secret client id such as "c_1f2e3d4c5b6a".
func newID() (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("read random client id: %w", err)
	}
	return "c_" + hex.EncodeToString(b[:]), nil
}

// clip cuts s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
