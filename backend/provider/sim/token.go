package sim

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
)

// genericSessionCookie is the session cookie of a site that names none of
// its own (Site.SessionCookie).
const genericSessionCookie = "sim_session"

// AccessTokenUntil mints an HS256 JWT whose exp claim is exp: the bearer
// token a site's session endpoint hands out and CheckBearer accepts.
func (s *Server) AccessTokenUntil(exp time.Time) string {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	claims, _ := json.Marshal(map[string]any{
		"aud": []string{"https://api.openai.com/v1"}, "iss": "https://auth.openai.com",
		"exp": exp.Unix(), "iat": time.Now().Unix(),
		"https://api.openai.com/auth": map[string]any{"user_id": "user-sim0000000000000000000001"},
	})
	body := header + "." + enc.EncodeToString(claims)
	return body + "." + enc.EncodeToString(s.mac(body))
}

func (s *Server) mac(parts ...string) []byte {
	m := hmac.New(sha256.New, s.secret)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

// MACHex is a hex MAC of parts under the server's secret: stable for the
// server's life, unguessable for a client (tokens, signatures, ids).
func (s *Server) MACHex(parts ...string) string { return hex.EncodeToString(s.mac(parts...)) }

var (
	ErrTokenMissing = errors.New("access token is missing")
	ErrTokenInvalid = errors.New("access token is invalid")
	ErrTokenExpired = errors.New("access token has expired")
)

// CheckBearer validates the Authorization header of a backend-api request.
func (s *Server) CheckBearer(r *http.Request) error {
	h := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		return ErrTokenMissing
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return ErrTokenInvalid
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, s.mac(parts[0]+"."+parts[1])) {
		return ErrTokenInvalid
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ErrTokenInvalid
	}
	var c struct {
		Exp int64 `json:"exp"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return ErrTokenInvalid
	}
	if time.Now().Unix() >= c.Exp {
		return ErrTokenExpired
	}
	return nil
}

// sessionCookie is the name of site's session cookie.
func sessionCookie(site string) string {
	if st, _ := lookup(site); st.SessionCookie != "" {
		return st.SessionCookie
	}
	return genericSessionCookie
}

// sessionValue is the opaque session cookie value; it is checked by MAC so a
// forged cookie is refused like on the real site.
func (s *Server) sessionValue(site string) string { return "sess." + s.MACHex("session", site)[:40] }

// HasSession reports whether r carries the session cookie of site.
func (s *Server) HasSession(r *http.Request, site string) bool {
	c, err := r.Cookie(sessionCookie(site))
	return err == nil && hmac.Equal([]byte(c.Value), []byte(s.sessionValue(site)))
}

// ensureSession logs the visitor in (as a persistent profile would already be)
// unless the site's page scenario is logged_out.
func (s *Server) ensureSession(w http.ResponseWriter, r *http.Request, site string) bool {
	if s.PageScenario(site).Name == ScenarioLoggedOut {
		return false
	}
	if s.HasSession(r, site) {
		return true
	}
	if st, _ := lookup(site); st.DeviceCookie != "" {
		http.SetCookie(w, &http.Cookie{Name: st.DeviceCookie, Value: "did-" + s.MACHex("did")[:32], Path: "/", Secure: true, SameSite: http.SameSiteLaxMode})
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie(site), Value: s.sessionValue(site), Path: "/", Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	return true
}
