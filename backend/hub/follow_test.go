package hub_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/service"
)

// followBackend is the fake backend with the optional capabilities: it
// follows runs, opens tabs, and records what the hub passed it.
type followBackend struct {
	*fakeBackend
	mu        sync.Mutex
	checks    []hub.SessionCheck
	requester []string
	opened    []hub.OpenTabRequest
	queries   []hub.SessionQuery
}

func (b *followBackend) PollSession(_ context.Context, c service.Caller, req service.PollRequest) (hub.PollResult, error) {
	if err := ownerOnly(c, "poll runs"); err != nil {
		return hub.PollResult{}, err
	}
	chk := hub.SessionCheck{Session: req.Session, Browser: req.Browser, BrowserURL: req.BrowserURL, TimeoutMs: req.TimeoutMs}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.checks = append(b.checks, chk)
	if chk.Session == "gone" {
		return hub.PollResult{}, errs.New(errs.SessionStale, "run gone: its tab T9 is gone")
	}
	return hub.PollResult{Session: &service.Run{ID: chk.Session}, Fresh: chk.Browser}, nil
}

func (b *followBackend) ReattachSession(_ context.Context, c service.Caller, req service.ReattachRequest) (hub.ReattachResult, error) {
	if err := ownerOnly(c, "resume a run"); err != nil {
		return hub.ReattachResult{}, err
	}
	chk, by := hub.SessionCheck{Session: req.Session, BrowserURL: req.BrowserURL, TimeoutMs: req.TimeoutMs}, c.Requester()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.checks = append(b.checks, chk)
	b.requester = append(b.requester, by)
	return hub.ReattachResult{Job: hub.Job{ID: "job-r", Kind: hub.KindReattach, State: "submitted", RequestedBy: by}, Started: chk.Session != "running"}, nil
}

func (b *followBackend) DoctorSessions(_ context.Context, c service.Caller, req service.DoctorRequest) ([]service.DoctorReport, error) {
	if err := ownerOnly(c, "check runs' tabs"); err != nil {
		return nil, err
	}
	chk := hub.SessionCheck{Browser: req.Browser, BrowserURL: req.BrowserURL, Recover: req.Recover}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.checks = append(b.checks, chk)
	return []service.DoctorReport{}, nil
}

func (b *followBackend) OpenTab(_ context.Context, c service.Caller, req hub.OpenTabRequest) (hub.Tab, error) {
	if err := ownerOnly(c, "open tabs"); err != nil {
		return hub.Tab{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.opened = append(b.opened, req)
	return hub.Tab{TargetID: "T2", Site: req.Site, URL: "https://chatgpt.com/"}, nil
}

func (b *followBackend) ListSessions(ctx context.Context, c service.Caller, q hub.SessionQuery) ([]hub.SessionSummary, error) {
	b.mu.Lock()
	b.queries = append(b.queries, q)
	b.mu.Unlock()
	return b.fakeBackend.ListSessions(ctx, c, q)
}

func (b *followBackend) calls() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.checks) + len(b.opened)
}

// startFollowHub starts a hub in front of b (with its client store cs, so
// that a restart can keep the paired clients).
func startFollowHub(t *testing.T, b *followBackend) *testHub {
	t.Helper()
	th := &testHub{clock: newFakeClock()}
	th.path = filepath.Join(t.TempDir(), "hub.json")
	srv, err := hub.New(b, hub.WithHubFile(th.path), hub.WithClock(th.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	th.srv = srv
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Close(ctx)
	})
	if th.file, err = hubfile.Read(th.path); err != nil {
		t.Fatal(err)
	}
	th.http = &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: 10 * time.Second}
	t.Cleanup(th.http.CloseIdleConnections)
	return th
}

func TestSessionFollowRoutes(t *testing.T) {
	b := &followBackend{fakeBackend: newFakeBackend(t, time.Now)}
	th := startFollowHub(t, b)
	th.backend = b.fakeBackend
	owner := th.file.Token
	_, agent := th.pairClient(t, "agent")

	t.Run("an agent may not poll, reattach, doctor or open tabs", func(t *testing.T) {
		for _, q := range []req{
			{method: http.MethodPost, path: "/v1/sessions/poll", body: hub.SessionCheck{Session: "s1"}},
			{method: http.MethodPost, path: "/v1/sessions/reattach", body: hub.SessionCheck{Session: "s1"}},
			{method: http.MethodPost, path: "/v1/sessions/doctor", body: hub.SessionCheck{}},
			{method: http.MethodPost, path: "/v1/tabs", body: hub.OpenTabRequest{Site: "chatgpt"}},
		} {
			q.token = agent
			r := th.do(t, q)
			if r.status != http.StatusForbidden || r.envelope(t).Code != errs.HubForbidden {
				t.Fatalf("%s by an agent: %d %s", q.path, r.status, r.body)
			}
		}
		if n := b.calls(); n != 0 {
			t.Fatalf("the backend was called %d times for refused requests", n)
		}
	})
	t.Run("an agent still lists tabs", func(t *testing.T) {
		if r := th.do(t, req{path: "/v1/tabs", token: agent}); r.status != http.StatusOK {
			t.Fatalf("tabs by an agent: %d %s", r.status, r.body)
		}
	})
	t.Run("a browser address off loopback is refused before the backend", func(t *testing.T) {
		for _, u := range []string{"ws://evil.example:9222/devtools/browser/x", "ws://127.0.0.1:9222@evil.example/x", "wss://127.0.0.1:9222/x", "file:///etc/passwd"} {
			r := th.do(t, req{method: http.MethodPost, path: "/v1/sessions/poll", token: owner, body: hub.SessionCheck{Browser: true, BrowserURL: u}})
			if r.status != http.StatusBadRequest || r.envelope(t).Code != errs.BadInput {
				t.Fatalf("browser %q: %d %s", u, r.status, r.body)
			}
		}
		if n := b.calls(); n != 0 {
			t.Fatalf("the backend was called %d times", n)
		}
	})
	t.Run("the owner's check reaches the backend as sent", func(t *testing.T) {
		chk := hub.SessionCheck{Session: "s1", Browser: true, BrowserURL: "ws://127.0.0.1:9222/devtools/browser/abc", TimeoutMs: 1500}
		r := th.do(t, req{method: http.MethodPost, path: "/v1/sessions/poll", token: owner, body: chk})
		var res hub.PollResult
		r.decode(t, &res)
		if r.status != http.StatusOK || !res.Fresh || res.Session == nil || res.Session.ID != "s1" {
			t.Fatalf("poll: %d %s", r.status, r.body)
		}
		r = th.do(t, req{method: http.MethodPost, path: "/v1/sessions/reattach", token: owner, body: hub.SessionCheck{Session: "s1", BrowserURL: "/tmp/profile/DevToolsActivePort"}})
		var started hub.ReattachResult
		r.decode(t, &started)
		if r.status != http.StatusCreated || !started.Started || started.Job.ID != "job-r" {
			t.Fatalf("reattach: %d %s", r.status, r.body)
		}
		r = th.do(t, req{method: http.MethodPost, path: "/v1/sessions/reattach", token: owner, body: hub.SessionCheck{Session: "running"}})
		if r.status != http.StatusOK {
			t.Fatalf("reattach of a run already followed: %d %s", r.status, r.body)
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.checks) != 3 || b.checks[0] != chk || b.requester[0] != hub.OwnerClientID {
			t.Fatalf("backend got %+v by %v", b.checks, b.requester)
		}
	})
	t.Run("the backend's envelope comes back with its status", func(t *testing.T) {
		r := th.do(t, req{method: http.MethodPost, path: "/v1/sessions/poll", token: owner, body: hub.SessionCheck{Session: "gone"}})
		if r.envelope(t).Code != errs.SessionStale || r.status < 400 {
			t.Fatalf("stale poll: %d %s", r.status, r.body)
		}
	})
	t.Run("a misspelt field is bad input", func(t *testing.T) {
		r := th.do(t, req{method: http.MethodPost, path: "/v1/sessions/doctor", token: owner, body: map[string]any{"recovr": true}})
		if r.status != http.StatusBadRequest {
			t.Fatalf("doctor with a misspelt field: %d %s", r.status, r.body)
		}
	})
	t.Run("a session listing passes site, state, tool and query to the backend", func(t *testing.T) {
		r := th.do(t, req{path: "/v1/sessions?site=chatgpt&state=streaming&tool=web-search&q=zip+builder&limit=7", token: agent})
		if r.status != http.StatusOK {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		want := hub.SessionQuery{Site: "chatgpt", State: "streaming", Tool: "web-search", Query: "zip builder", Limit: 7}
		if len(b.queries) != 1 || b.queries[0] != want {
			t.Fatalf("backend got %+v, want %+v", b.queries, want)
		}
	})
}

func TestBackendWithoutFollowerSaysSo(t *testing.T) {
	th := startHub(t)
	r := th.do(t, req{method: http.MethodPost, path: "/v1/sessions/poll", token: th.file.Token, body: hub.SessionCheck{}})
	if r.status != http.StatusBadRequest || r.envelope(t).Code != errs.BadInput {
		t.Fatalf("poll on a backend that cannot: %d %s", r.status, r.body)
	}
}
