package store_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

// soakDuration is 2 s by default; FERRY_STORE_SOAK=30s gives the long run
// that issue 6 asks for.
func soakDuration(t *testing.T) time.Duration {
	if v := os.Getenv("FERRY_STORE_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("FERRY_STORE_SOAK: %v", err)
		}
		return d
	}
	return 2 * time.Second
}

// TestConcurrentReadersAndWritersKeepAnInvariant moves money between
// accounts from 2 writers while 8 readers sum all accounts in snapshots: every
// snapshot and the final state must hold the starting total, and the journal
// of transfers must account for every committed move.
func TestConcurrentReadersAndWritersKeepAnInvariant(t *testing.T) {
	s := openT(t, t.TempDir(), store.WithSyncWrites(false))
	const accounts, start = 20, 1000
	const total = accounts * start
	acct := func(i int) []byte { return fmt.Appendf(nil, "client/acct%02d", i) }
	enc := func(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }
	dec := func(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) }
	err := s.Update(func(tx *store.Tx) error {
		for i := range accounts {
			if err := tx.Put(acct(i), enc(start)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	deadline := time.Now().Add(soakDuration(t))
	var wg sync.WaitGroup
	var transfers, snapshots atomic.Int64
	var seq atomic.Uint64
	errc := make(chan error, 16)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for time.Now().Before(deadline) {
				from, to := r.IntN(accounts), r.IntN(accounts)
				if from == to {
					continue
				}
				amount := int64(1 + r.IntN(50))
				id := seq.Add(1)
				err := s.Update(func(tx *store.Tx) error {
					a, err := tx.Get(acct(from))
					if err != nil {
						return err
					}
					b, err := tx.Get(acct(to))
					if err != nil {
						return err
					}
					if err := tx.Put(acct(from), enc(dec(a)-amount)); err != nil {
						return err
					}
					if err := tx.Put(acct(to), enc(dec(b)+amount)); err != nil {
						return err
					}
					return tx.Put(store.JournalKey("bank", id), enc(amount))
				})
				if err != nil {
					errc <- fmt.Errorf("transfer: %w", err)
					return
				}
				transfers.Add(1)
			}
		}()
	}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				var sum int64
				err := s.View(func(tx *store.Tx) error {
					sum = 0
					return tx.Scan([]byte("client/acct"), func(_, v []byte) error {
						sum += dec(v)
						return nil
					})
				})
				if err != nil {
					errc <- fmt.Errorf("snapshot: %w", err)
					return
				}
				if sum != total {
					errc <- fmt.Errorf("a snapshot summed to %d, want %d", sum, total)
					return
				}
				snapshots.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}

	var sum, journalled int64
	err = s.View(func(tx *store.Tx) error {
		if err := tx.Scan([]byte("client/acct"), func(_, v []byte) error { sum += dec(v); return nil }); err != nil {
			return err
		}
		return tx.Scan(store.JournalPrefix("bank"), func(_, _ []byte) error { journalled++; return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum != total || journalled != transfers.Load() {
		t.Fatalf("final sum %d (want %d), journal entries %d for %d committed transfers", sum, total, journalled, transfers.Load())
	}
	if transfers.Load() < 20 || snapshots.Load() < 20 {
		t.Fatalf("too little work to mean anything: %d transfers, %d snapshots", transfers.Load(), snapshots.Load())
	}
	t.Logf("%d transfers and %d snapshots, invariant held", transfers.Load(), snapshots.Load())
	if _, err := s.Get([]byte("client/none")); !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
}
