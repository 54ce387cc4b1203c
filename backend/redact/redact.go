// Package redact removes what may carry a secret from what Ferry shows or
// exports (a run's record, its JSON, its Markdown): the query, fragment and
// userinfo of an address, where sites put one-off tokens, and the values of
// evidence under secret-looking keys. It is a leaf, so that package record
// (a run's Redacted) may use it.
package redact

import (
	"net/url"
	"strings"
)

// secretKeys are substrings of evidence keys whose values are never shown.
var secretKeys = []string{"token", "cookie", "secret", "authorization", "password", "bearer", "session_key"}

// URL is raw without query, fragment and userinfo; "" stays "", and an
// address that does not parse becomes "[unparseable url]".
func URL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "[unparseable url]"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String()
}

// Evidence is a copy of m with the values under secret-looking keys (any
// case) replaced by "[redacted]"; nil stays nil.
func Evidence(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		lk := strings.ToLower(k)
		for _, s := range secretKeys {
			if strings.Contains(lk, s) {
				v = "[redacted]"
				break
			}
		}
		out[k] = v
	}
	return out
}
