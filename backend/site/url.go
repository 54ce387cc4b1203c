package site

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// address is a parsed Site.Address: scheme https, a lower-case host (with a
// port only when it is not 443) and a path prefix ending in "/".
type address struct {
	host   string
	prefix string
}

// parseAddress checks and splits a site address. It refuses anything but a
// plain https origin with an optional path prefix: no userinfo, query,
// fragment, non-ASCII host or dot segments.
func parseAddress(raw string) (address, error) {
	if hasUnsafeChars(raw) {
		return address{}, fmt.Errorf("address %q holds spaces, backslashes or control characters", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return address{}, fmt.Errorf("address %q is not a URL: %w", raw, err)
	}
	switch {
	case !strings.EqualFold(u.Scheme, "https"):
		return address{}, fmt.Errorf("address %q must start with https://", raw)
	case u.User != nil:
		return address{}, fmt.Errorf("address %q must not contain a user name or password", raw)
	case u.Opaque != "" || u.Host == "":
		return address{}, fmt.Errorf("address %q has no host", raw)
	case u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(raw, "?#"):
		return address{}, fmt.Errorf("address %q must not have a query or fragment", raw)
	}
	host, ok := canonicalHost(u)
	if !ok {
		return address{}, fmt.Errorf("address %q has a host that is not plain ASCII (write IDN hosts in their xn-- form)", raw)
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if hasDotSegment(p) {
		return address{}, fmt.Errorf("address %q has . or .. path segments", raw)
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return address{host: host, prefix: p}, nil
}

// canonicalHost lower-cases the host and drops the default port. Hosts with
// non-ASCII letters (IDN look-alikes), a trailing dot, or empty labels are
// refused.
func canonicalHost(u *url.URL) (string, bool) {
	h := strings.ToLower(u.Hostname())
	if h == "" || strings.HasSuffix(h, ".") || strings.Contains(h, "..") {
		return "", false
	}
	for _, r := range h {
		if r > 0x7E || r <= ' ' || r == '%' {
			return "", false
		}
	}
	if port := u.Port(); port != "" && port != "443" {
		return net.JoinHostPort(h, port), true
	}
	return h, true
}

func hasUnsafeChars(s string) bool {
	for _, r := range s {
		if r <= ' ' || r == 0x7F || r == '\\' {
			return true
		}
	}
	return false
}

// hasDotSegment reports "." or ".." path segments, also percent-encoded:
// the browser resolves them, so "/chat/../admin" is not under "/chat/".
func hasDotSegment(p string) bool {
	lower := strings.ToLower(p)
	lower = strings.ReplaceAll(lower, "%2e", ".")
	for _, seg := range strings.Split(lower, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c")
}

// Allows reports whether rawURL lies inside the site: scheme https, exactly
// the site's host and port (no subdomain, no look-alike such as
// chatgpt.com.evil.io, no userinfo trick such as https://chatgpt.com@evil.io),
// and a path under the site's path prefix.
func (s Site) Allows(rawURL string) bool {
	a, err := parseAddress(s.Address)
	if err != nil {
		return false
	}
	return a.allows(rawURL)
}

func (a address) allows(rawURL string) bool {
	if hasUnsafeChars(rawURL) {
		return false
	}
	u, err := url.Parse(rawURL)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.User != nil || u.Opaque != "" {
		return false
	}
	host, ok := canonicalHost(u)
	if !ok || host != a.host {
		return false
	}
	if a.prefix == "/" {
		return true
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if hasDotSegment(p) {
		return false
	}
	return strings.HasPrefix(p, a.prefix) || p+"/" == a.prefix
}

// Conversation says what raw is on the site: the address of a
// conversation (lasting), a conversation's transient address (a path
// outside the start page that ConversationPath does not match), or
// neither (the start or new-chat page, or an address that is not a URL).
// It does not check that raw is on the site: see Allows.
func (s Site) Conversation(raw string) (lasting, transient bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return false, false
	}
	p := strings.TrimSuffix(u.Path, "/")
	for _, home := range []string{s.Address, s.NewChat} {
		if home == "" {
			continue
		}
		if h, err := url.Parse(home); err == nil && strings.TrimSuffix(h.Path, "/") == p {
			return false, false
		}
	}
	if s.ConversationPath == "" {
		return true, false
	}
	re, err := conversationPattern(s.ConversationPath)
	if err != nil || !re.MatchString(u.EscapedPath()) {
		return false, true
	}
	return true, false
}

// Current is raw with the host moved to the site's own when raw is on one
// of its OldHosts (https://kimi.moonshot.cn/chat/x → https://www.kimi.com/chat/x),
// and raw itself otherwise.
func (s Site) Current(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.User != nil || u.Port() != "" {
		return raw
	}
	if !slices.Contains(s.OldHosts, strings.ToLower(u.Hostname())) {
		return raw
	}
	a, err := parseAddress(s.Address)
	if err != nil {
		return raw
	}
	u.Host = a.host
	return u.String()
}

// Host returns the site's canonical host ("chatgpt.com"), or "" when its
// address is invalid.
func (s Site) Host() string {
	a, err := parseAddress(s.Address)
	if err != nil {
		return ""
	}
	return a.host
}

// IsLoginURL reports whether rawURL is one of the site's login pages: an
// https URL on one of its LoginHosts, or under Address at one of its
// LoginPaths.
func (s Site) IsLoginURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.User != nil {
		return false
	}
	host, ok := canonicalHost(u)
	if !ok {
		return false
	}
	for _, h := range s.LoginHosts {
		if host == strings.ToLower(h) {
			return true
		}
	}
	if !s.Allows(rawURL) {
		return false
	}
	for _, p := range s.LoginPaths {
		if u.Path == p || strings.HasPrefix(u.Path, strings.TrimSuffix(p, "/")+"/") {
			return true
		}
	}
	return false
}

// CaptureMatches reports whether a request (method and URL) is the site's
// answer stream.
func (s Site) CaptureMatches(method, rawURL string) bool {
	if s.Stream == nil || s.Stream.PathPattern == "" || !s.Allows(rawURL) {
		return false
	}
	if s.Stream.Method != "" && !strings.EqualFold(method, s.Stream.Method) {
		return false
	}
	re, err := regexp.Compile(s.Stream.PathPattern)
	if err != nil {
		return false
	}
	u, _ := url.Parse(rawURL)
	return re.MatchString(u.Path)
}

// Redact returns rawURL without userinfo, query and fragment, which may hold
// tokens: the form safe for evidence and logs.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparseable URL)"
	}
	if u.Opaque != "" {
		return u.Scheme + ":…"
	}
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	return r.String()
}

// conversationPatterns caches the compiled Site.ConversationPath patterns:
// a run's wait asks of every address it polls.
var conversationPatterns sync.Map // pattern -> *regexp.Regexp

func conversationPattern(p string) (*regexp.Regexp, error) {
	if re, ok := conversationPatterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	conversationPatterns.Store(p, re)
	return re, nil
}
