package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// BaseSchemaVersion is the schema version of the key layout in doc.go before
// any migration. A build's current version is the To of its last migration,
// or this when there is none.
const BaseSchemaVersion = 1

// Migration moves a store from schema version From to To (To > From). Apply
// runs inside one transaction together with the version bump, so a step
// either happens entirely or not at all; it must fit in one transaction (see
// ErrTxnTooBig) and must not have effects outside tx, because it can be
// retried on a conflict.
type Migration struct {
	From, To int
	Name     string
	Apply    func(tx *Tx) error
}

// AppliedMigration records a migration step that ran, under
// meta/migration/<to>.
type AppliedMigration struct {
	From      int       `json:"from"`
	To        int       `json:"to"`
	Name      string    `json:"name"`
	AppliedAt time.Time `json:"appliedAt"`
}

// builtinMigrations is the production list, in order. Append a step when the
// key layout or a record's shape changes; never edit or remove a shipped one.
var builtinMigrations []Migration

// targetVersion is the newest schema version a migration list leads to.
func targetVersion(ms []Migration) int {
	if len(ms) == 0 {
		return BaseSchemaVersion
	}
	return ms[len(ms)-1].To
}

// validateMigrations checks that the steps form one chain from
// BaseSchemaVersion upwards.
func validateMigrations(ms []Migration) error {
	prev := BaseSchemaVersion
	for i, m := range ms {
		switch {
		case m.Apply == nil:
			return fmt.Errorf("migration %d (%s) has no Apply", i, m.Name)
		case m.From != prev:
			return fmt.Errorf("migration %d (%s) starts at version %d, want %d", i, m.Name, m.From, prev)
		case m.To <= m.From:
			return fmt.Errorf("migration %d (%s) goes from %d to %d, want a higher version", i, m.Name, m.From, m.To)
		}
		prev = m.To
	}
	return nil
}

// migrate stamps a new store or brings an older one to the target version,
// one transaction per step, and returns the resulting version.
func (s *Store) migrate(ms []Migration) (int, error) {
	target := targetVersion(ms)
	version, err := s.readSchema()
	if err != nil {
		return 0, err
	}
	if version == 0 {
		return target, s.stampNew(target)
	}
	if version > target {
		return 0, errs.New(errs.StoreSchemaNewer,
			"the store in %s has schema version %d; this Ferry knows versions up to %d", s.dir, version, target).
			WithEvidence("dir", s.dir).
			WithEvidence("storeVersion", strconv.Itoa(version)).
			WithEvidence("knownVersion", strconv.Itoa(target))
	}
	for _, m := range ms {
		if m.From != version {
			continue
		}
		err := s.Update(func(tx *Tx) error {
			// Re-read inside the step's transaction: a conflicting
			// retry must see whether the step already committed.
			cur, err := readSchemaTx(tx)
			if err != nil {
				return err
			}
			if cur != m.From {
				return nil
			}
			if err := m.Apply(tx); err != nil {
				return err
			}
			rec, _ := json.Marshal(AppliedMigration{From: m.From, To: m.To, Name: m.Name, AppliedAt: time.Now().UTC()})
			if err := tx.Put(MigrationKey(m.To), rec); err != nil {
				return err
			}
			return tx.Put(KeySchema, []byte(strconv.Itoa(m.To)))
		})
		if err != nil {
			return 0, errs.Wrap(err, errs.Internal, "migrate store %s from version %d to %d (%s): %v", s.dir, m.From, m.To, m.Name, err).
				WithStage(errs.StageStore).
				WithEvidence("dir", s.dir)
		}
		version = m.To
	}
	if version != target {
		return 0, errs.New(errs.StoreCorrupt, "the store in %s has schema version %d, which no migration of this Ferry starts from", s.dir, version).
			WithEvidence("dir", s.dir)
	}
	return version, nil
}

// stampNew writes the schema version of a store that has none. A store with
// data but no version was not written by Ferry (or lost its meta key): it is
// refused rather than guessed at.
func (s *Store) stampNew(version int) error {
	return s.Update(func(tx *Tx) error {
		empty := true
		errStop := errors.New("stop")
		err := tx.Scan(nil, func(key, _ []byte) error {
			empty = false
			return errStop
		})
		if err != nil && !errors.Is(err, errStop) {
			return err
		}
		if !empty {
			return errs.New(errs.StoreCorrupt, "the store in %s holds data but no schema version (%s)", s.dir, KeySchema).
				WithEvidence("dir", s.dir)
		}
		return tx.Put(KeySchema, []byte(strconv.Itoa(version)))
	})
}

func (s *Store) readSchema() (int, error) {
	var v int
	err := s.View(func(tx *Tx) error {
		var err error
		v, err = readSchemaTx(tx)
		return err
	})
	return v, err
}

// readSchemaTx returns the stored schema version, 0 when there is none.
func readSchemaTx(tx *Tx) (int, error) {
	b, err := tx.Get(KeySchema)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(string(b))
	if err != nil || v < 1 {
		return 0, errs.New(errs.StoreCorrupt, "the store's schema version %q is not a positive number", b)
	}
	return v, nil
}

// AppliedMigrations lists the migration steps recorded in the store, in
// order.
func (s *Store) AppliedMigrations() ([]AppliedMigration, error) {
	var out []AppliedMigration
	err := s.Scan(PrefixMigration, func(_, val []byte) error {
		var m AppliedMigration
		if err := json.Unmarshal(val, &m); err != nil {
			return fmt.Errorf("decode migration record: %w", err)
		}
		out = append(out, m)
		return nil
	})
	return out, err
}
