package client_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
)

// TestHeartbeatsDecideWhetherAStreamIsAlive: a hub's heartbeats keep a
// stream without events open, and a stream that falls silent for longer
// than 2.5 heartbeats (a hung owner, a half-open connection) is given up
// and dialled again, even though TCP never reported an error.
func TestHeartbeatsDecideWhetherAStreamIsAlive(t *testing.T) {
	t.Run("a quiet stream with heartbeats stays connected", func(t *testing.T) {
		path := hubPath(t)
		// Intervals long enough that a busy machine's scheduling pauses
		// (100 ms and more under load) never pass for a silent stream.
		startHub(t, path, hub.WithHeartbeat(250*time.Millisecond))
		clock := &recordingClock{}
		var connects atomic.Int32
		f := client.NewFollower(client.FromHubFile(path), nil, client.WithClock(clock),
			client.WithStateHook(func(s client.State) {
				if s == client.StateConnected {
					connects.Add(1)
				}
			}))
		runFollower(t, f)
		eventually(t, "the follower is connected", func() bool { return connects.Load() == 1 })
		time.Sleep(2 * time.Second) // 8 heartbeat intervals, 3 stale limits
		if n, w := connects.Load(), clock.Waits(); n != 1 || len(w) != 0 {
			t.Fatalf("a stream with heartbeats was dropped: %d connects, waits %v", n, w)
		}
	})
	t.Run("a stream that falls silent is dialled again", func(t *testing.T) {
		var accepted atomic.Int32
		var mu sync.Mutex
		var conns []*websocket.Conn
		silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := websocket.Accept(w, r, nil)
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			accepted.Add(1)
			hello, _ := json.Marshal(hub.WSMessage{Type: hub.WSHello, HeartbeatMs: 40, Time: time.Now()})
			c.Write(r.Context(), websocket.MessageText, hello)
			// Then nothing, not even a heartbeat; the connection stays open.
			<-r.Context().Done()
		}))
		defer func() {
			mu.Lock()
			for _, c := range conns {
				c.CloseNow()
			}
			mu.Unlock()
			silent.Close()
		}()
		port := silent.Listener.Addr().(*net.TCPAddr).Port
		clock := &recordingClock{}
		f := client.NewFollower(client.Static(client.NewEndpoint(port, "o_x.y")), nil, client.WithClock(clock))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- f.Run(ctx) }()
		start := time.Now()
		eventually(t, "the silent stream was dialled three times", func() bool { return accepted.Load() >= 3 })
		cancel()
		<-done
		// Each silent stream is given up after 2.5 × 40 ms = 100 ms.
		if el := time.Since(start); el < 200*time.Millisecond {
			t.Fatalf("3 connections in %s: the follower gave up before the stale limit", el)
		}
		if w := clock.Waits(); len(w) < 2 || w[0] > 1300*time.Millisecond || w[1] > 1300*time.Millisecond {
			// Every session said hello, so the backoff starts over at 1 s.
			t.Fatalf("waits between silent streams: %v, want each 1 s ±30 %%", w)
		}
	})
}
