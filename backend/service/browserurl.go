package service

import (
	"net/url"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// CheckBrowserURL refuses browser addresses that are not on loopback: an
// owner must never connect out on a caller's behalf. "" and a
// DevToolsActivePort path (no scheme, a local file) pass. Errors:
// errs.BadInput naming the address.
func CheckBrowserURL(raw string) error {
	if !strings.Contains(raw, "://") {
		return nil
	}
	u, err := url.Parse(raw)
	if err == nil && u.User == nil {
		switch strings.ToLower(u.Scheme) {
		case "ws", "http":
			switch strings.ToLower(u.Hostname()) {
			case "127.0.0.1", "localhost", "::1":
				return nil
			}
		}
	}
	return errs.New(errs.BadInput, "browser address %q is not a loopback DevTools address", clip(raw, 120)).
		WithHint("pass ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
}
