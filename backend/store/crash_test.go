package store_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

// TestEveryAcknowledgedWriteSurvivesSIGKILL runs a writer in a child
// process, kills it with SIGKILL in the middle of its stream of Puts, and
// checks after each reopen that every key the child acknowledged is present
// with its value. The cycle repeats on the same directory (a crash loop),
// with and without SyncWrites.
func TestEveryAcknowledgedWriteSurvivesSIGKILL(t *testing.T) {
	dir := t.TempDir()
	const cycles = 5
	acked := map[string]bool{}
	for cycle := range cycles {
		run := fmt.Sprintf("r%d", cycle)
		sync := cycle%2 == 0
		env := []string{childRunEnv + "=" + run}
		if sync {
			env = append(env, childSyncEnv+"=1")
		}
		c := startChild(t, "writer", dir, env...)
		want := 200 + rand.IntN(400)
		n := 0
		for n < want && c.lines.Scan() {
			acked[c.lines.Text()] = true
			n++
		}
		if n < want {
			t.Fatalf("cycle %d: writer stopped after %d acks", cycle, n)
		}
		if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Acks already in the pipe were acknowledged before the kill too.
		for c.lines.Scan() {
			acked[c.lines.Text()] = true
		}
		_ = c.cmd.Wait()

		start := time.Now()
		s, err := store.Open(context.Background(), dir, store.WithRole("test"))
		if err != nil {
			t.Fatalf("cycle %d: reopen after SIGKILL: %v", cycle, err)
		}
		reopen := time.Since(start)
		missing, wrong := 0, 0
		for key := range acked {
			got, err := s.Get([]byte(key))
			switch {
			case err != nil:
				missing++
			case !bytes.Equal(got, crashValue(key)):
				wrong++
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if missing > 0 || wrong > 0 {
			t.Fatalf("cycle %d (sync %v): of %d acknowledged keys %d are missing and %d wrong", cycle, sync, len(acked), missing, wrong)
		}
		t.Logf("cycle %d (sync %v): killed after %d acks; %d acknowledged keys all present; reopen %v", cycle, sync, n, len(acked), reopen)
	}
}
