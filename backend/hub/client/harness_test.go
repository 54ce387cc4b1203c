package client_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

// startHub runs a real hub over a fake service, publishing its hub file at
// path; it is closed at the end of the test.
func startHub(t testing.TB, path string, opts ...hub.Option) (*hub.Server, *fakeBackend) {
	t.Helper()
	be := newFakeBackend(t)
	srv, err := hub.New(be, append([]hub.Option{hub.WithHubFile(path)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeHub(srv) })
	return srv, be
}

func closeHub(srv *hub.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Close(ctx)
}

func hubPath(t testing.TB) string { return filepath.Join(t.TempDir(), "hub.json") }

func discover(t testing.TB, path string) client.Endpoint {
	t.Helper()
	ep, err := client.Discover(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// recordingClock records the waits asked of it and lets each pass after a
// few real milliseconds, so reconnect schedules are checked without
// sleeping through them.
type recordingClock struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (c *recordingClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	return time.After(3 * time.Millisecond)
}

func (c *recordingClock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// runFollower runs f until the test ends and returns Run's result channel.
func runFollower(t *testing.T, f *client.Follower) <-chan error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	finished := make(chan struct{})
	go func() {
		done <- f.Run(ctx)
		close(finished)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
			t.Error("Follower.Run did not return after its context ended")
		}
	})
	return done
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
