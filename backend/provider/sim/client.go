package sim

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"time"
)

// Client returns an HTTP client that reaches every simulated site at its real
// URL (https://chatgpt.com/...) through this server and trusts its
// certificate — a stand-in for "a program outside the browser", which has no
// cookies unless given some. It must be called after Start.
func (s *Server) Client() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.certPEM)
	addr := s.Addr()
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
		ForceAttemptHTTP2: true,
	}
	return &http.Client{Transport: tr, Timeout: 2 * time.Minute}
}

// SessionCookie is the login cookie a logged-in browser holds for site
// (ChatGPT: __Secure-next-auth.session-token). Tests use it to act as the
// browser from Go.
func (s *Server) SessionCookie(site string) *http.Cookie {
	return &http.Cookie{Name: sessionCookie(site), Value: s.sessionValue(site)}
}

// AccessToken mints a valid ChatGPT access token (as /api/auth/session does).
func (s *Server) AccessToken() string { return s.AccessTokenUntil(time.Now().Add(time.Hour)) }
