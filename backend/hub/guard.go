package hub

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"

	"github.com/ferrydesk/ferry/backend/service"
)

// guard holds the loopback names under which the hub may be addressed.
type guard struct {
	hosts   map[string]bool // "127.0.0.1:port", "localhost:port", "[::1]:port"
	origins map[string]bool // "http://127.0.0.1:port", ... plus WithAllowedOrigins
	// patterns are the same origins for coder/websocket's own Origin check,
	// which is kept on as a second line behind checkRequest.
	patterns []string
}

func newGuard(port int, extraOrigins []string) *guard {
	p := strconv.Itoa(port)
	g := &guard{hosts: map[string]bool{}, origins: map[string]bool{}}
	for _, h := range []string{"127.0.0.1:" + p, "localhost:" + p, "[::1]:" + p} {
		g.hosts[h] = true
		g.origins["http://"+h] = true
	}
	for _, o := range extraOrigins {
		g.origins[o] = true
	}
	for o := range g.origins {
		g.patterns = append(g.patterns, matchEscaper.Replace(o))
	}
	return g
}

// checkRequest enforces the Host allowlist (against DNS rebinding), the
// Origin allowlist and Fetch Metadata (against cross-site requests from web
// pages). It returns a 403 envelope or nil.
func (g *guard) checkRequest(r *http.Request) *errs.Envelope {
	host := strings.ToLower(r.Host)
	if host == "" {
		return errs.New(errs.HubForbidden, "the request has no Host header").
			WithHint("address the hub as 127.0.0.1, localhost or [::1] with its port")
	}
	if !g.hosts[host] {
		return errs.New(errs.HubForbidden, "Host %q is not this hub", clip(r.Host, 80)).
			WithEvidence("host", clip(r.Host, 80)).
			WithHint("address the hub as 127.0.0.1, localhost or [::1] with its port")
	}
	if values, ok := r.Header["Origin"]; ok {
		if len(values) != 1 || !g.originAllowed(values[0]) {
			origin := clip(strings.Join(values, ","), 120)
			return errs.New(errs.HubForbidden, "Origin %q may not call the local API", origin).
				WithEvidence("origin", origin).
				WithHint("the local API is for programs on this machine, not web pages; add the origin in Ferry's settings if you trust it")
		}
	}
	switch strings.ToLower(r.Header.Get("Sec-Fetch-Site")) {
	case "cross-site", "same-site":
		return errs.New(errs.HubForbidden, "a %s request from a web page may not call the local API", r.Header.Get("Sec-Fetch-Site"))
	}
	return nil
}

func (g *guard) originAllowed(origin string) bool {
	o := strings.ToLower(strings.TrimSpace(origin))
	if o == "" || o == "null" {
		return false
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return false
	}
	return g.origins[u.Scheme+"://"+u.Host]
}

// matchEscaper quotes path.Match metacharacters: coder/websocket matches
// OriginPatterns with path.Match, and "[::1]" would otherwise be a class.
var matchEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "*", `\*`, "?", `\?`)

// Query parameter names under which clients commonly send credentials.
var credentialParams = map[string]bool{
	"token": true, "access_token": true, "accesstoken": true, "auth": true, "authorization": true,
	"bearer": true, "api_key": true, "apikey": true, "key": true, "password": true, "secret": true,
}

// checkQuery rejects a request whose URL carries a token: URLs end up in
// logs, shell history and Referer headers. The request is refused even when
// the Authorization header is right, so the mistake is noticed at once.
func checkQuery(u *url.URL) *errs.Envelope {
	if u.RawQuery == "" {
		return nil
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return errs.New(errs.BadInput, "the query string is malformed: %v", err)
	}
	for name, values := range q {
		looksLikeToken := false
		for _, v := range values {
			if _, problem := service.TokenShape(v); problem == "" {
				looksLikeToken = true
			}
		}
		if credentialParams[strings.ToLower(name)] || looksLikeToken {
			return errs.New(errs.HubUnauthorized, "a token was sent in the URL (query parameter %q); tokens are accepted only in the Authorization header", clip(name, 40)).
				WithEvidence("parameter", clip(name, 40)).
				WithHint("send `Authorization: Bearer <token>` and remove the token from the URL; treat the token as leaked if the URL was logged")
		}
	}
	return nil
}

// clip shortens attacker-controlled text before it goes into a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
