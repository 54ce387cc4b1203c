package job

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

// soak is 2 s by default; FERRY_JOB_SOAK=30s gives issue 6's long run.
func soak(t *testing.T) time.Duration {
	if v := os.Getenv("FERRY_JOB_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("FERRY_JOB_SOAK: %v", err)
		}
		return d
	}
	return 2 * time.Second
}

// TestReadersAndWritersKeepRecordsJournalsAndIndexInStep runs 2 writers
// (creating runs and walking them through the pipeline) against 8 readers
// (listing, searching and reading journals). Every record a reader sees must
// have a journal at least as long as its Seq, ending in its state; at the
// end every record's journal must match it exactly and the index must hold
// every run once.
func TestReadersAndWritersKeepRecordsJournalsAndIndexInStep(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir(), store.WithSyncWrites(false))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	r, err := OpenRepo(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	path := []State{StatePreflighted, StateComposed, StateSubmitting, StateSubmitted, StateStreaming, StateCompleted, StateExtracted, StateDone}
	deadline := time.Now().Add(soak(t))
	var wg sync.WaitGroup
	var created, reads atomic.Int64
	errc := make(chan error, 10)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				s, err := r.Create(ctx, &Session{Site: "chatgpt", Prompt: fmt.Sprintf("writer %d run %d about otters", w, i)})
				if err != nil {
					errc <- err
					return
				}
				created.Add(1)
				for _, to := range path[:i%len(path)+1] {
					if _, err := r.Transition(ctx, s.ID, to, "", func(x *Session) { x.Answer = "otters hold hands " + string(to) }); err != nil {
						errc <- err
						return
					}
				}
			}
		}()
	}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				items, _, err := r.List(ctx, Filter{Query: "otters", Limit: 20})
				if err != nil {
					errc <- err
					return
				}
				for _, it := range items {
					j, err := r.Journal(ctx, it.Session.ID)
					if err != nil {
						errc <- err
						return
					}
					// The journal is read after the record: it may be longer, never shorter.
					if uint64(len(j)) < it.Session.Seq {
						errc <- fmt.Errorf("session %s: seq %d but %d journal entries", it.Session.ID, it.Session.Seq, len(j))
						return
					}
					reads.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	n := 0
	err = st.Scan(store.PrefixSession, func(key, _ []byte) error {
		n++
		id := string(key[len(store.PrefixSession):])
		s, err := r.Get(ctx, id)
		if err != nil {
			return err
		}
		j, err := r.Journal(ctx, id)
		if err != nil {
			return err
		}
		if uint64(len(j)) != s.Seq || j[len(j)-1].State != s.State {
			return fmt.Errorf("session %s: seq %d state %s, journal %d entries ending %s", id, s.Seq, s.State, len(j), j[len(j)-1].State)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if int64(n) != created.Load() || r.Len() != n {
		t.Fatalf("created %d, stored %d, indexed %d", created.Load(), n, r.Len())
	}
	t.Logf("%d runs written, %d journal checks by readers", n, reads.Load())
}
