package hub_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

func TestSecurityRefusesEveryUntrustedRequest(t *testing.T) {
	th := startHub(t)
	owner := th.file.Token
	port := strconv.Itoa(th.file.Port)
	clientID, clientTok := th.pairClient(t, "agent")
	revokedID, revokedTok := th.pairClient(t, "old agent")
	th.revoke(t, revokedID)
	wrongSecret := "owner." + strings.Repeat("A", 43)
	unknownClient := "c_000000000000." + strings.Repeat("B", 43)

	cases := []struct {
		name   string
		req    req
		status int
		code   errs.Code
		says   string // a fragment the message must contain
	}{
		{"a Host of another name is refused (DNS rebinding)", req{path: "/v1/whoami", token: owner, host: "evil.example:" + port}, 403, errs.HubForbidden, "not this hub"},
		{"a loopback Host with another port is refused", req{path: "/v1/whoami", token: owner, host: "127.0.0.1:1"}, 403, errs.HubForbidden, "not this hub"},
		{"a Host without the port is refused", req{path: "/v1/whoami", token: owner, host: "localhost"}, 403, errs.HubForbidden, "not this hub"},
		{"a 0.0.0.0 Host is refused", req{path: "/v1/whoami", token: owner, host: "0.0.0.0:" + port}, 403, errs.HubForbidden, "not this hub"},
		{"a localhost Host with the port is accepted", req{path: "/v1/whoami", token: owner, host: "localhost:" + port}, 200, "", ""},
		{"an [::1] Host with the port is accepted", req{path: "/v1/whoami", token: owner, host: "[::1]:" + port}, 200, "", ""},
		{"a foreign Origin is refused", req{path: "/v1/whoami", token: owner, header: map[string]string{"Origin": "http://evil.example"}}, 403, errs.HubForbidden, "Origin"},
		{"the null Origin is refused", req{path: "/v1/whoami", token: owner, header: map[string]string{"Origin": "null"}}, 403, errs.HubForbidden, "Origin"},
		{"a loopback Origin on another port is refused", req{path: "/v1/whoami", token: owner, header: map[string]string{"Origin": "http://127.0.0.1:1"}}, 403, errs.HubForbidden, "Origin"},
		{"an https Origin of the hub's host is refused", req{path: "/v1/whoami", token: owner, header: map[string]string{"Origin": "https://127.0.0.1:" + port}}, 403, errs.HubForbidden, "Origin"},
		{"a foreign Origin is refused before the token is looked at", req{method: "POST", path: "/v1/jobs", header: map[string]string{"Origin": "http://evil.example"}}, 403, errs.HubForbidden, "Origin"},
		{"the hub's own Origin is accepted", req{path: "/v1/whoami", token: owner, header: map[string]string{"Origin": "http://127.0.0.1:" + port}}, 200, "", ""},
		{"a cross-site fetch without Origin is refused", req{path: "/v1/whoami", token: owner, header: map[string]string{"Sec-Fetch-Site": "cross-site"}}, 403, errs.HubForbidden, "cross-site"},
		{"a request without a token is refused", req{path: "/v1/whoami"}, 401, errs.HubUnauthorized, "no Authorization header"},
		{"a short token is refused", req{path: "/v1/whoami", token: "owner.c2hvcnQ"}, 401, errs.HubUnauthorized, "too short"},
		{"a token that is not a Ferry token is refused", req{path: "/v1/whoami", token: "hunter2"}, 401, errs.HubUnauthorized, "not a Ferry token"},
		{"a wrong owner token is refused", req{path: "/v1/whoami", token: wrongSecret}, 401, errs.HubUnauthorized, "not valid"},
		{"a token of an unknown client is refused", req{path: "/v1/whoami", token: unknownClient}, 401, errs.HubUnauthorized, "not valid"},
		{"a basic credential is refused", req{path: "/v1/whoami", header: map[string]string{"Authorization": "Basic b3duZXI6eA=="}}, 401, errs.HubUnauthorized, "not a bearer token"},
		{"a token in the query is refused even with the right header", req{path: "/v1/whoami?token=" + owner, token: owner}, 401, errs.HubUnauthorized, "Authorization header"},
		{"a token under any query name is refused", req{path: "/v1/sessions?site=" + owner, token: owner}, 401, errs.HubUnauthorized, "in the URL"},
		{"an access_token parameter is refused", req{path: "/v1/whoami?access_token=x", token: owner}, 401, errs.HubUnauthorized, "in the URL"},
		{"a token in the query of the pairing route is refused", req{method: "POST", path: "/v1/pair?token=" + owner, body: hub.PairRequest{Code: "x", Name: "y"}}, 401, errs.HubUnauthorized, "in the URL"},
		{"a revoked client's token is refused", req{path: "/v1/whoami", token: revokedTok}, 401, errs.HubUnauthorized, "revoked"},
		{"a paired client may not decide approvals", req{method: "POST", path: "/v1/approvals/job-1/approve", token: clientTok}, 403, errs.HubForbidden, "only the owner"},
		{"a paired client may not issue pairing codes", req{method: "POST", path: "/v1/pairing", token: clientTok}, 403, errs.HubForbidden, "only the owner"},
		{"a paired client may not revoke clients", req{method: "DELETE", path: "/v1/clients/" + clientID, token: clientTok}, 403, errs.HubForbidden, "only the owner"},
		{"a paired client may not list clients", req{path: "/v1/clients", token: clientTok}, 403, errs.HubForbidden, "only the owner"},
		{"a GET to a state-changing route is 405", req{path: "/v1/jobs", token: owner}, 405, errs.BadInput, "GET is not allowed"},
		{"a GET to cancel is 405", req{path: "/v1/jobs/job-1/cancel", token: owner}, 405, errs.BadInput, "GET is not allowed"},
		{"a GET to approve is 405", req{path: "/v1/approvals/job-1/approve", token: owner}, 405, errs.BadInput, "GET is not allowed"},
		{"a GET to pairing is 405", req{path: "/v1/pairing", token: owner}, 405, errs.BadInput, "GET is not allowed"},
		{"a GET to pair is 405", req{path: "/v1/pair"}, 405, errs.BadInput, "GET is not allowed"},
		{"an OPTIONS preflight is 405, never a CORS grant", req{method: "OPTIONS", path: "/v1/jobs", token: owner, header: map[string]string{"Access-Control-Request-Method": "POST"}}, 405, errs.BadInput, "not allowed"},
		{"an unknown route is 404", req{path: "/v1/nothing", token: owner}, 404, errs.HubNotFound, "no API route"},
		{"an unknown route without a token is 401, not 404", req{path: "/v1/nothing"}, 401, errs.HubUnauthorized, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := th.do(t, c.req)
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.body)
			}
			if v := r.header.Get("Access-Control-Allow-Origin"); v != "" {
				t.Fatalf("Access-Control-Allow-Origin %q must never be sent", v)
			}
			if c.code == "" {
				return
			}
			e := r.envelope(t)
			if e.Code != c.code || !strings.Contains(e.Message, c.says) {
				t.Fatalf("envelope %s %q, want %s containing %q", e.Code, e.Message, c.code, c.says)
			}
			if strings.Contains(string(r.body), th.file.Token) || strings.Contains(string(r.body), clientTok) {
				t.Fatal("an error body echoed a token")
			}
			if c.status == 401 && r.header.Get("WWW-Authenticate") == "" {
				t.Fatal("a 401 lacks WWW-Authenticate")
			}
		})
	}
}

func TestAnEmptyHostIsRefused(t *testing.T) {
	th := startHub(t)
	conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(th.file.Port))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// HTTP/1.0 allows a request without Host; the hub must not.
	fmt.Fprintf(conn, "GET /v1/whoami HTTP/1.0\r\nAuthorization: Bearer %s\r\n\r\n", th.file.Token)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 403 || !strings.Contains(string(body), "no Host header") {
		t.Fatalf("status %d body %s, want 403 naming the missing Host", res.StatusCode, body)
	}
}

func TestWebSocketUpgradeIsCheckedLikeHTTP(t *testing.T) {
	th := startHub(t)
	port := strconv.Itoa(th.file.Port)
	_, revokedTok := th.pairClient(t, "gone")
	revokedID := strings.Split(revokedTok, ".")[0]
	th.revoke(t, revokedID)
	cases := []struct {
		name   string
		token  string
		header map[string]string
		status int
	}{
		{"an upgrade from a foreign Origin is refused", th.file.Token, map[string]string{"Origin": "http://evil.example"}, 403},
		{"an upgrade from the null Origin is refused", th.file.Token, map[string]string{"Origin": "null"}, 403},
		{"an upgrade without a token is refused", "", nil, 401},
		{"an upgrade with a revoked token is refused", revokedTok, nil, 401},
		{"an upgrade from the hub's own Origin is accepted", th.file.Token, map[string]string{"Origin": "http://localhost:" + port}, 101},
		{"an upgrade from the [::1] origin is accepted by both origin checks", th.file.Token, map[string]string{"Origin": "http://[::1]:" + port}, 101},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, res, err := th.dialWS(t, c.token, c.header)
			if res == nil {
				t.Fatalf("no handshake response: %v", err)
			}
			if res.StatusCode != c.status {
				t.Fatalf("handshake status %d, want %d (%v)", res.StatusCode, c.status, err)
			}
			if c.status == 101 {
				if m := readWS(t, conn, 5*time.Second); m.Type != hub.WSHello || m.ClientID != hub.OwnerClientID {
					t.Fatalf("first message %+v, want the owner's hello", m)
				}
			}
		})
	}
	t.Run("a token in the upgrade URL is refused", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h := http.Header{"Authorization": {"Bearer " + th.file.Token}}
		_, res, _ := websocket.Dial(ctx, "ws://127.0.0.1:"+port+"/v1/events?access_token="+th.file.Token, &websocket.DialOptions{HTTPHeader: h})
		if res == nil || res.StatusCode != 401 {
			t.Fatalf("response %v, want 401", res)
		}
	})
}

func TestRevocationEndsAccessAndClosesOpenStreams(t *testing.T) {
	th := startHub(t)
	id, tok := th.pairClient(t, "agent")
	conn, _, err := th.dialWS(t, tok, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := readWS(t, conn, 5*time.Second); m.Type != hub.WSHello {
		t.Fatalf("want hello, got %+v", m)
	}
	if r := th.do(t, req{path: "/v1/whoami", token: tok}); r.status != 200 {
		t.Fatalf("before revocation: %d", r.status)
	}
	if r := th.do(t, req{method: "DELETE", path: "/v1/clients/" + id, token: th.file.Token}); r.status != 200 {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, _, err := conn.Read(ctx)
		if err == nil {
			continue
		}
		if got := websocket.CloseStatus(err); got != websocket.StatusPolicyViolation {
			t.Fatalf("stream ended with %v (status %d), want close 1008", err, got)
		}
		break
	}
	if r := th.do(t, req{path: "/v1/whoami", token: tok}); r.status != 401 || r.envelope(t).Code != errs.HubUnauthorized {
		t.Fatalf("after revocation: %d %s", r.status, r.body)
	}
	var list []hub.ClientInfo
	th.do(t, req{path: "/v1/clients", token: th.file.Token}).decode(t, &list)
	if len(list) != 1 || list[0].RevokedAt == nil {
		t.Fatalf("client list %+v, want the client marked revoked", list)
	}
}
