package store_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

func TestMigrations(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir)
	if err := s.Put(store.SessionKey("s1"), []byte(`{"v":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	runs := 0
	toV2 := []store.Migration{{From: 1, To: 2, Name: "add session index", Apply: func(tx *store.Tx) error {
		runs++
		return tx.Scan(store.PrefixSession, func(key, val []byte) error {
			return tx.Put(append([]byte("idx/"), key...), val)
		})
	}}}

	t.Run("a registered migration runs once at open and is recorded", func(t *testing.T) {
		s, err := store.Open(context.Background(), dir, store.WithMigrations(toV2))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if runs != 1 || s.SchemaVersion() != 2 {
			t.Fatalf("runs %d, version %d", runs, s.SchemaVersion())
		}
		if got, err := s.Get([]byte("idx/session/s1")); err != nil || string(got) != `{"v":1}` {
			t.Fatalf("migration's write: %q, %v", got, err)
		}
		applied, err := s.AppliedMigrations()
		if err != nil || len(applied) != 1 || applied[0].Name != "add session index" || applied[0].From != 1 || applied[0].To != 2 || applied[0].AppliedAt.IsZero() {
			t.Fatalf("recorded migrations %+v, %v", applied, err)
		}
		if v, err := s.Get(store.KeySchema); err != nil || string(v) != "2" {
			t.Fatalf("meta/schema %q, %v", v, err)
		}
	})
	t.Run("reopening does not run it again", func(t *testing.T) {
		s, err := store.Open(context.Background(), dir, store.WithMigrations(toV2))
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if runs != 1 {
			t.Fatalf("migration ran %d times", runs)
		}
	})
	t.Run("a build that knows only version 1 refuses the newer store untouched", func(t *testing.T) {
		_, err := store.Open(context.Background(), dir)
		e := errs.From(err)
		if e.Code != errs.StoreSchemaNewer || e.Evidence["storeVersion"] != "2" || e.Evidence["knownVersion"] != strconv.Itoa(store.BaseSchemaVersion) || e.Evidence["dir"] != dir {
			t.Fatalf("got %#v", e)
		}
		s := openT(t, dir, store.WithMigrations(toV2))
		if s.SchemaVersion() != 2 {
			t.Fatalf("refused open changed the version to %d", s.SchemaVersion())
		}
		s.Close()
	})
	t.Run("a new store is stamped with the newest version without running migrations", func(t *testing.T) {
		fresh := t.TempDir()
		before := runs
		s := openT(t, fresh, store.WithMigrations(toV2))
		if s.SchemaVersion() != 2 || runs != before {
			t.Fatalf("version %d, runs %d", s.SchemaVersion(), runs-before)
		}
	})
	t.Run("a failing step leaves the store at its old version with nothing half-applied", func(t *testing.T) {
		d := t.TempDir()
		s := openT(t, d)
		s.Put(store.SessionKey("a"), []byte("x"))
		s.Close()
		boom := errors.New("boom")
		bad := []store.Migration{{From: 1, To: 2, Name: "half", Apply: func(tx *store.Tx) error {
			if err := tx.Put([]byte("half/written"), []byte("x")); err != nil {
				return err
			}
			return boom
		}}}
		_, err := store.Open(context.Background(), d, store.WithMigrations(bad))
		if !errors.Is(err, boom) {
			t.Fatalf("got %v, want the step's error in the chain", err)
		}
		s = openT(t, d)
		if s.SchemaVersion() != 1 {
			t.Fatalf("version %d after a failed step", s.SchemaVersion())
		}
		if _, err := s.Get([]byte("half/written")); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("half-applied step is visible: %v", err)
		}
	})
	t.Run("a broken chain of migrations is refused", func(t *testing.T) {
		gap := []store.Migration{
			{From: 1, To: 2, Name: "a", Apply: func(*store.Tx) error { return nil }},
			{From: 3, To: 4, Name: "b", Apply: func(*store.Tx) error { return nil }},
		}
		if _, err := store.Open(context.Background(), t.TempDir(), store.WithMigrations(gap)); err == nil {
			t.Fatal("open accepted migrations with a gap")
		}
	})
}
