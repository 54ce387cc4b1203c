package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/service"
)

type eventLog struct {
	mu  sync.Mutex
	evs []hub.Event
}

func (l *eventLog) add(ev hub.Event) {
	l.mu.Lock()
	l.evs = append(l.evs, ev)
	l.mu.Unlock()
}

func (l *eventLog) has(jobID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ev := range l.evs {
		if ev.JobID == jobID {
			return true
		}
	}
	return false
}

func TestTheQueueIsBoundedAndNeverBlocks(t *testing.T) {
	clock := &recordingClock{}
	f := client.NewFollower(client.FromHubFile(hubPath(t)), nil, client.WithClock(clock))
	runFollower(t, f)
	for i := 0; i < client.QueueSize; i++ {
		if _, err := f.Send("POST", "/v1/jobs", hub.JobSpec{Kind: hub.KindAsk, Prompt: "x"}); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	// No hub ever appears, so the queue never drains: a Send that waited
	// for room would never return, and only the hang bound ends the wait.
	sent := make(chan error, 1)
	go func() {
		_, err := f.Send("POST", "/v1/jobs", hub.JobSpec{Kind: hub.KindAsk, Prompt: "one too many"})
		sent <- err
	}()
	var err error
	select {
	case err = <-sent:
	case <-time.After(30 * time.Second):
		t.Fatal("request 201 waited for room in the full queue instead of being refused")
	}
	if !errs.Has(err, errs.HubQueueFull) || !strings.Contains(err.Error(), "200") {
		t.Fatalf("request 201: %v, want hub_queue_full naming the 200 waiting", err)
	}
	if f.Queued() != client.QueueSize {
		t.Fatalf("queued %d", f.Queued())
	}
}

func TestQueuedRequestsFlushInOrderWhenTheOwnerAppears(t *testing.T) {
	path := hubPath(t)
	clock := &recordingClock{}
	f := client.NewFollower(client.FromHubFile(path), nil, client.WithClock(clock), client.WithRand(func() float64 { return 0.5 }))
	runFollower(t, f)
	var replies []<-chan client.Reply
	for i := 0; i < 30; i++ {
		ch, err := f.Send("POST", "/v1/jobs", hub.JobSpec{Kind: hub.KindAsk, Prompt: fmt.Sprintf("p%02d", i)})
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, ch)
	}
	eventually(t, "the follower backed off three times", func() bool { return len(clock.Waits()) >= 3 })
	_, be := startHub(t, path)
	for i, ch := range replies {
		select {
		case r := <-ch:
			var job hub.Job
			if r.Status != 201 || json.Unmarshal(r.Body, &job) != nil || job.State != "running" {
				t.Fatalf("reply %d: %d %s", i, r.Status, r.Body)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("reply %d never came", i)
		}
	}
	got := be.seenPrompts()
	if len(got) != 30 {
		t.Fatalf("the hub ran %d jobs, want 30 (once each)", len(got))
	}
	for i, p := range got {
		if p != fmt.Sprintf("p%02d", i) {
			t.Fatalf("job %d was %q: the queue was not flushed in order (%v)", i, p, got)
		}
	}
	waits := clock.Waits()
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if waits[i] != want {
			t.Fatalf("wait %d was %s, want %s (schedule %v)", i, waits[i], want, waits)
		}
	}
}

func TestTheFollowerReconnectsToARestartedOwner(t *testing.T) {
	path := hubPath(t)
	srv1, be1 := startHub(t, path)
	clock := &recordingClock{}
	var evs eventLog
	var states sync.Map
	f := client.NewFollower(client.FromHubFile(path), evs.add, client.WithClock(clock),
		client.WithStateHook(func(s client.State) { states.Store(s, true) }))
	runFollower(t, f)
	eventually(t, "the follower is connected", func() bool { _, ok := states.Load(client.StateConnected); return ok })
	be1.events <- hub.Event{Type: hub.EventRunUpdate, JobID: "before", ClientID: hub.OwnerClientID}
	eventually(t, "the first owner's event arrived", func() bool { return evs.has("before") })

	closeHub(srv1)
	states.Delete(client.StateConnected)
	eventually(t, "the follower noticed", func() bool { return len(clock.Waits()) >= 2 })
	pending, err := f.Send("POST", "/v1/jobs", hub.JobSpec{Kind: hub.KindAsk, Prompt: "while away"})
	if err != nil {
		t.Fatal(err)
	}
	_, be2 := startHub(t, path) // a new port and a new token
	eventually(t, "the follower reconnected", func() bool { _, ok := states.Load(client.StateConnected); return ok })
	select {
	case r := <-pending:
		if r.Status != 201 {
			t.Fatalf("queued request: %d %s", r.Status, r.Body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the queued request was not sent after the reconnect")
	}
	be2.events <- hub.Event{Type: hub.EventRunUpdate, JobID: "after", ClientID: hub.OwnerClientID}
	eventually(t, "the second owner's event arrived", func() bool { return evs.has("after") })
	w := clock.Waits()
	if w[0] < 700*time.Millisecond || w[0] > 1300*time.Millisecond {
		t.Fatalf("the first wait after a lost connection was %s, want 1 s ±30 %%", w[0])
	}
	for i := 1; i < len(w); i++ {
		if w[i] > 78*time.Second {
			t.Fatalf("wait %d is %s, beyond 60 s +30 %%", i, w[i])
		}
	}
}

func TestARevokedClientStopsReconnecting(t *testing.T) {
	path := hubPath(t)
	srv, be := startHub(t, path)
	info, token := be.register(t, "agent")
	var connected sync.WaitGroup
	connected.Add(1)
	var once sync.Once
	f := client.NewFollower(client.Static(client.NewEndpoint(srv.Port(), token)), nil, client.WithClock(&recordingClock{}),
		client.WithStateHook(func(s client.State) {
			if s == client.StateConnected {
				once.Do(connected.Done)
			}
		}))
	done := runFollower(t, f)
	connected.Wait()
	if _, err := be.RevokeClient(context.Background(), service.Owner(service.FaceCLI), service.ClientRef{ID: info.ID}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("Run returned %v, want hub_unauthorized", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the follower kept going after revocation")
	}
}

func TestRequestsOverTheStreamAreRateLimitedAndRetried(t *testing.T) {
	path := hubPath(t)
	srv, be := startHub(t, path, hub.WithRateLimit(3, 500*time.Millisecond))
	_, token := be.register(t, "agent")
	clock := &recordingClock{}
	f := client.NewFollower(client.Static(client.NewEndpoint(srv.Port(), token)), nil, client.WithClock(clock))
	runFollower(t, f)
	var chans []<-chan client.Reply
	for i := 0; i < 6; i++ {
		ch, _ := f.Send("GET", "/v1/tabs", nil)
		chans = append(chans, ch)
	}
	for i, ch := range chans {
		select {
		case r := <-ch:
			if r.Status != 200 {
				t.Fatalf("request %d: %d", i, r.Status)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("request %d was never answered", i)
		}
	}
	found := false
	for _, w := range clock.Waits() {
		if w >= time.Second { // a 429 wait (at least 1 s as the hub rounds up)
			found = true
		}
	}
	if !found {
		t.Fatalf("no rate-limit wait among %v", clock.Waits())
	}
}
