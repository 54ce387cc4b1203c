package hub_test

import (
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"encoding/json"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

func (th *testHub) newCode(t *testing.T) string {
	t.Helper()
	r := th.do(t, req{method: "POST", path: "/v1/pairing", token: th.file.Token})
	if r.status != 201 {
		t.Fatalf("new pairing code: %d %s", r.status, r.body)
	}
	var pc hub.PairingCode
	r.decode(t, &pc)
	if len(pc.Code) != 11 || !pc.ExpiresAt.After(th.clock.Now()) || pc.ExpiresAt.Sub(th.clock.Now()) > 5*time.Minute {
		t.Fatalf("pairing code %+v: want XXXXX-XXXXX valid for at most 5 minutes", pc)
	}
	return pc.Code
}

func (th *testHub) pair(t *testing.T, code string) resp {
	t.Helper()
	return th.do(t, req{method: "POST", path: "/v1/pair", body: hub.PairRequest{Code: code, Name: "claude-code"}})
}

func TestPairingCodesWorkOnceAndExpire(t *testing.T) {
	th := startHub(t)

	t.Run("a fresh code gives a working client token shown once", func(t *testing.T) {
		code := th.newCode(t)
		r := th.pair(t, strings.ToLower(code)) // case does not matter
		if r.status != 201 {
			t.Fatalf("pair: %d %s", r.status, r.body)
		}
		var pr hub.PairResponse
		r.decode(t, &pr)
		var who hub.WhoAmI
		w := th.do(t, req{path: "/v1/whoami", token: pr.Token})
		w.decode(t, &who)
		if w.status != 200 || who.ClientID != pr.ClientID || who.Owner {
			t.Fatalf("whoami with the new token: %d %+v", w.status, who)
		}
		var list []hub.ClientInfo
		th.do(t, req{path: "/v1/clients", token: th.file.Token}).decode(t, &list)
		if len(list) != 1 || list[0].Name != "claude-code" || strings.Contains(fmt.Sprint(list), pr.Token) {
			t.Fatalf("client list %+v", list)
		}

		t.Run("and the same code cannot be used again", func(t *testing.T) {
			if r := th.pair(t, code); r.status != 401 || r.envelope(t).Code != errs.PairingCodeInvalid {
				t.Fatalf("reuse: %d %s", r.status, r.body)
			}
		})
	})

	t.Run("a code is dead after five minutes", func(t *testing.T) {
		th.clock.Advance(2 * time.Minute) // let the attempts window pass
		code := th.newCode(t)
		th.clock.Advance(5*time.Minute + time.Second)
		if r := th.pair(t, code); r.status != 401 || r.envelope(t).Code != errs.PairingCodeInvalid {
			t.Fatalf("expired code: %d %s", r.status, r.body)
		}
	})

	t.Run("a code still works just before it expires", func(t *testing.T) {
		th.clock.Advance(2 * time.Minute)
		code := th.newCode(t)
		th.clock.Advance(5*time.Minute - time.Second)
		if r := th.pair(t, code); r.status != 201 {
			t.Fatalf("code at 4:59: %d %s", r.status, r.body)
		}
	})

	t.Run("a bad client name does not spend the code", func(t *testing.T) {
		th.clock.Advance(2 * time.Minute)
		code := th.newCode(t)
		r := th.do(t, req{method: "POST", path: "/v1/pair", body: hub.PairRequest{Code: code, Name: "  "}})
		if r.status != 400 {
			t.Fatalf("blank name: %d %s", r.status, r.body)
		}
		if r := th.pair(t, code); r.status != 201 {
			t.Fatalf("code after a refused name: %d %s", r.status, r.body)
		}
	})
}

func TestPairingBruteForceIsLimitedAndLockedOut(t *testing.T) {
	th := startHub(t)
	code := th.newCode(t)
	for i := 0; i < 5; i++ {
		if r := th.pair(t, "WRONG-CODE"+strconv.Itoa(i)); r.status != 401 {
			t.Fatalf("attempt %d: %d", i+1, r.status)
		}
	}
	r := th.pair(t, code)
	if r.status != 429 || r.envelope(t).Code != errs.HubRateLimited || r.header.Get("Retry-After") == "" {
		t.Fatalf("6th attempt in a minute, even with the right code: %d %s", r.status, r.body)
	}
	// Five more failures in the next minute make ten: the address is locked.
	th.clock.Advance(61 * time.Second)
	for i := 0; i < 5; i++ {
		th.pair(t, "WRONG-CODE"+strconv.Itoa(i))
	}
	th.clock.Advance(61 * time.Second)
	r = th.pair(t, code)
	if r.status != 429 || !strings.Contains(r.envelope(t).Message, "locked") {
		t.Fatalf("after 10 failures: %d %s", r.status, r.body)
	}
	retry, _ := strconv.Atoi(r.header.Get("Retry-After"))
	if retry < 600 {
		t.Fatalf("Retry-After %d s: the lockout should last minutes", retry)
	}
	th.clock.Advance(16 * time.Minute)
	if r := th.pair(t, th.newCode(t)); r.status != 201 {
		t.Fatalf("after the lockout a fresh code works: %d %s", r.status, r.body)
	}
}

func TestPairingCodesBurnAfterManyFailuresFromAnyAddress(t *testing.T) {
	th := startHub(t)
	if runtime.GOOS != "linux" {
		t.Skip("only Linux routes all of 127.0.0.0/8 to loopback by default")
	}
	code := th.newCode(t)
	// Every local address is 127.x.y.z: spread the guesses over addresses.
	for i := 0; i < 20; i++ {
		addr := fmt.Sprintf("127.0.0.%d", 2+i/4)
		tr := &http.Transport{Proxy: nil, DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}}).DialContext}
		hc := &http.Client{Transport: tr}
		body := strings.NewReader(fmt.Sprintf(`{"code":"GUESS-%05d","name":"x"}`, i))
		preq, err := http.NewRequest(http.MethodPost, th.url("/v1/pair"), body)
		if err != nil {
			t.Fatal(err)
		}
		preq.Header.Set("Content-Type", "application/json")
		stateThisBuild(preq.Header)
		res, err := hc.Do(preq)
		if err != nil {
			t.Fatalf("post from %s: %v", addr, err)
		}
		res.Body.Close()
		tr.CloseIdleConnections()
		if res.StatusCode != 401 {
			t.Fatalf("guess %d from %s: %d", i, addr, res.StatusCode)
		}
	}
	if r := th.pair(t, code); r.status != 401 {
		t.Fatalf("the right code after 20 failed guesses: %d, want it burned (401)", r.status)
	}
}

func TestRateLimitCountsHTTPAndWebSocketMessages(t *testing.T) {
	th := startHub(t)
	_, tok := th.pairClient(t, "agent")
	conn, _, err := th.dialWS(t, tok, nil) // the upgrade is message 1
	if err != nil {
		t.Fatal(err)
	}
	readWS(t, conn, 5*time.Second)
	for i := 0; i < 59; i++ {
		if r := th.do(t, req{path: "/v1/tabs", token: tok}); r.status != 200 {
			t.Fatalf("request %d: %d", i+2, r.status)
		}
	}
	for i := 0; i < 40; i++ {
		writeWS(t, conn, hub.WSRequest{ID: "m" + strconv.Itoa(i), Method: "GET", Path: "/v1/tabs"})
		if m := readUntil(t, conn, 5*time.Second, isReply); m.Status != 200 {
			t.Fatalf("ws message %d: %d %s", i+61, m.Status, m.Body)
		}
	}
	r := th.do(t, req{path: "/v1/tabs", token: tok})
	if r.status != 429 || r.envelope(t).Code != errs.HubRateLimited {
		t.Fatalf("message 101: %d %s", r.status, r.body)
	}
	if ra, _ := strconv.Atoi(r.header.Get("Retry-After")); ra < 1 || ra > 10 {
		t.Fatalf("Retry-After %q, want 1..10 s", r.header.Get("Retry-After"))
	}
	writeWS(t, conn, hub.WSRequest{ID: "over", Method: "GET", Path: "/v1/tabs"})
	if m := readUntil(t, conn, 5*time.Second, isReply); m.Status != 429 || m.RetryAfterMs < 1000 {
		t.Fatalf("ws message over the limit: %+v", m)
	}
	t.Run("another client is not affected", func(t *testing.T) {
		if r := th.do(t, req{path: "/v1/tabs", token: th.file.Token}); r.status != 200 {
			t.Fatalf("owner: %d", r.status)
		}
	})
	t.Run("the window slides", func(t *testing.T) {
		th.clock.Advance(10 * time.Second)
		if r := th.do(t, req{path: "/v1/tabs", token: tok}); r.status != 200 {
			t.Fatalf("after 10 s: %d", r.status)
		}
	})
}

func isReply(m hub.WSMessage) bool { return m.Type == hub.WSReply }

func TestMessageIDsAreDeduplicatedForSixtySeconds(t *testing.T) {
	th := startHub(t)
	_, tok := th.pairClient(t, "agent")
	th.do(t, req{method: "POST", path: "/v1/clients/" + strings.Split(tok, ".")[0] + "/settings", token: th.file.Token, body: map[string]bool{"autoApprove": true}})
	post := func(id, prompt string) resp {
		return th.do(t, req{method: "POST", path: "/v1/jobs", token: tok, body: hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: prompt},
			header: map[string]string{hub.MessageIDHeader: id}})
	}
	first := post("msg-1", "hello")
	again := post("msg-1", "hello")
	if first.status != 201 || again.status != 201 || string(first.body) != string(again.body) {
		t.Fatalf("first %d %s, again %d %s: want the same response", first.status, first.body, again.status, again.body)
	}
	if again.header.Get(hub.ReplayHeader) != "true" || first.header.Get(hub.ReplayHeader) != "" {
		t.Fatal("only the repeat is marked as a replay")
	}
	if n := len(th.backend.createdSpecs()); n != 1 {
		t.Fatalf("the backend created %d jobs, want 1", n)
	}
	t.Run("an id reused for another request is refused", func(t *testing.T) {
		if r := post("msg-1", "something else"); r.status != 409 || r.envelope(t).Code != errs.BadInput {
			t.Fatalf("%d %s", r.status, r.body)
		}
	})
	t.Run("ids are per client", func(t *testing.T) {
		r := th.do(t, req{method: "POST", path: "/v1/jobs", token: th.file.Token, body: hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "hello"},
			header: map[string]string{hub.MessageIDHeader: "msg-1"}})
		if r.status != 201 || r.header.Get(hub.ReplayHeader) != "" {
			t.Fatalf("owner with the same id: %d", r.status)
		}
	})
	t.Run("the same id over the WebSocket replays too", func(t *testing.T) {
		conn, _, err := th.dialWS(t, tok, nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "hello"}) // the bytes th.do sent
		writeWS(t, conn, hub.WSRequest{ID: "msg-1", Method: "POST", Path: "/v1/jobs", Body: body})
		m := readUntil(t, conn, 5*time.Second, isReply)
		if m.Status != 201 || string(m.Body) != strings.TrimSpace(string(first.body)) {
			t.Fatalf("ws replay %d %s, want %s", m.Status, m.Body, first.body)
		}
	})
	t.Run("after sixty seconds the id is new again", func(t *testing.T) {
		before := len(th.backend.createdSpecs())
		th.clock.Advance(61 * time.Second)
		if r := post("msg-1", "hello"); r.status != 201 || r.header.Get(hub.ReplayHeader) != "" {
			t.Fatalf("%d", r.status)
		}
		if got := len(th.backend.createdSpecs()); got != before+1 {
			t.Fatalf("jobs %d, want %d", got, before+1)
		}
	})
	t.Run("concurrent duplicates run once", func(t *testing.T) {
		before := len(th.backend.createdSpecs())
		done := make(chan int, 8)
		for i := 0; i < 8; i++ {
			go func() { done <- post("burst", "same").status }()
		}
		for i := 0; i < 8; i++ {
			if s := <-done; s != 201 {
				t.Errorf("status %d", s)
			}
		}
		if got := len(th.backend.createdSpecs()); got != before+1 {
			t.Fatalf("jobs %d, want %d", got, before+1)
		}
	})
}

func TestHeartbeatsKeepTheStreamAlive(t *testing.T) {
	th := startHub(t, hub.WithHeartbeat(40*time.Millisecond))
	conn, _, err := th.dialWS(t, th.file.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	hello := readWS(t, conn, 5*time.Second)
	if hello.Type != hub.WSHello || hello.HeartbeatMs != 40 {
		t.Fatalf("hello %+v", hello)
	}
	start := time.Now()
	for i := 0; i < 3; i++ {
		if m := readWS(t, conn, 2*time.Second); m.Type != hub.WSHeartbeat {
			t.Fatalf("message %d: %+v, want a heartbeat", i, m)
		}
	}
	if el := time.Since(start); el < 100*time.Millisecond {
		t.Fatalf("3 heartbeats in %s: faster than the 40 ms interval", el)
	}
}

func TestTheDefaultHeartbeatIsThirtySeconds(t *testing.T) {
	th := startHub(t)
	conn, _, err := th.dialWS(t, th.file.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := readWS(t, conn, 5*time.Second); m.HeartbeatMs != 30000 {
		t.Fatalf("hello announces %d ms", m.HeartbeatMs)
	}
}
