package sim_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// These tests run their own simulator (no browser) to use server options.

func startServer(t *testing.T, opts ...sim.Option) *sim.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv := sim.New(opts...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); srv.Close() })
	return srv
}

func TestEstuaryURLsExpire(t *testing.T) {
	srv := startServer(t, sim.WithEstuaryTTL(50*time.Millisecond), sim.WithPace(500, 0))
	a := &gptAPI{t: t, srv: srv, client: srv.Client(), token: srv.AccessToken(), cookie: srv.SessionCookie(sim.ChatGPT)}
	dec, _, _ := a.ask(sim.Directive("code_zip"), "")
	c, _ := a.conversation(dec.ConversationID)
	_, j := a.mint(dec.ConversationID, sandboxRefs(c)["/mnt/data/project.zip"], "/mnt/data/project.zip", true)
	dl := j["download_url"].(string)
	if resp, _ := a.do("GET", dl, nil, false, true); resp.StatusCode != 200 {
		t.Fatalf("fresh URL: %d", resp.StatusCode)
	}
	time.Sleep(80 * time.Millisecond)
	if resp, b := a.do("GET", dl, nil, false, true); resp.StatusCode != 403 || !strings.Contains(string(b), "expiry") {
		t.Fatalf("expired URL: %d %s, want 403", resp.StatusCode, b)
	}
}

func TestSessionExpiredHandsOutAnExpiredToken(t *testing.T) {
	srv := startServer(t, sim.WithScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioSessionExpired}))
	c := srv.Client()
	req, _ := http.NewRequest("GET", sim.URL(sim.ChatGPT, "/api/auth/session"), nil)
	req.AddCookie(srv.SessionCookie(sim.ChatGPT))
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	tok := strings.SplitN(strings.SplitN(string(b), `"accessToken":"`, 2)[1], `"`, 2)[0]
	req, _ = http.NewRequest("GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/x"), nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(string(b), "token_expired") {
		t.Fatalf("expired token: %d %s", resp.StatusCode, b)
	}
}

func TestDirectivesParseAndRejectUnknownScenarios(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		ok         bool
	}{
		{"a scenario with a size parses", "scenario=code_zip zip_size=5MiB", true},
		{"an unknown scenario is rejected", "scenario=nope", false},
		{"a bare word is rejected", "scenario=normal oops", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := sim.ParseScenario(tc.spec)
			if (err == nil) != tc.ok {
				t.Fatalf("ParseScenario(%q) = %+v, %v", tc.spec, sc, err)
			}
		})
	}
	if n, err := sim.ParseSize("200MiB"); err != nil || n != 200<<20 {
		t.Fatalf("ParseSize: %d %v", n, err)
	}
	if got := sim.Directive("code_zip", "zip_size", "5MiB"); got != "[[sim:scenario=code_zip zip_size=5MiB]]" {
		t.Fatalf("Directive = %q", got)
	}
}
