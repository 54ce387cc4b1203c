package browser

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Attach connects to a browser the user started. endpoint is either the
// DevTools websocket address (ws://127.0.0.1:PORT/devtools/browser/ID) or the
// path of a profile's DevToolsActivePort file (or of the profile directory
// holding it), whose first line is the port and second the browser's
// websocket path. Chrome 136+ only opens DevTools on a non-default profile or
// when the user enables it at chrome://inspect/#remote-debugging; the file is
// how that endpoint is found. Close on an attached browser only disconnects.
//
// Errors: BadInput for an address that is not a loopback ws:// URL or a
// readable, well-formed DevToolsActivePort file; BrowserLaunchFailed when
// nothing answers there.
func Attach(ctx context.Context, endpoint string) (*Browser, error) {
	wsURL, err := resolveEndpoint(endpoint)
	if err != nil {
		return nil, err
	}
	return connect(ctx, wsURL, nil)
}

func resolveEndpoint(endpoint string) (string, error) {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		return "", errs.New(errs.BadInput, "attach to the browser: no address given").
			WithHint("pass --browser-url ws://127.0.0.1:PORT/devtools/browser/ID or the path of the profile's DevToolsActivePort file")
	}
	if strings.HasPrefix(endpoint, "ws://") || strings.HasPrefix(endpoint, "wss://") {
		return endpoint, requireLoopback(endpoint)
	}
	if strings.Contains(endpoint, "://") {
		return "", errs.New(errs.BadInput, "the browser address %q is not a ws:// DevTools address", redactEndpoint(endpoint)).
			WithHint("pass the websocket address (ws://127.0.0.1:PORT/devtools/browser/ID) or the DevToolsActivePort file of the profile")
	}
	path := endpoint
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "DevToolsActivePort")
	}
	return readDevToolsActivePort(path)
}

// readDevToolsActivePort turns the file Chromium writes in its profile into
// a websocket address on loopback.
func readDevToolsActivePort(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", errs.Wrap(err, errs.BadInput, "read the DevToolsActivePort file: %v", err).
			WithEvidence("path", path).
			WithHint("start the browser with remote debugging enabled (chrome://inspect/#remote-debugging) and pass the DevToolsActivePort file of its profile")
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	bad := func(why string) error {
		return errs.New(errs.BadInput, "the DevToolsActivePort file %s is malformed: %s", path, why).
			WithEvidence("path", path).
			WithHint("the browser rewrites this file at every start: start it again with remote debugging enabled")
	}
	if len(lines) < 2 {
		return "", bad("it needs a port line and a websocket path line")
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || port <= 0 || port > 65535 {
		return "", bad("the first line is not a port number")
	}
	wsPath := strings.TrimSpace(lines[1])
	if !strings.HasPrefix(wsPath, "/devtools/browser/") {
		return "", bad("the second line is not a /devtools/browser/ path")
	}
	return "ws://127.0.0.1:" + strconv.Itoa(port) + wsPath, nil
}

// requireLoopback refuses DevTools addresses off this machine: DevTools is
// full control of the user's logged-in browser.
func requireLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return errs.New(errs.BadInput, "the browser address %q is not a ws:// DevTools address", redactEndpoint(raw)).
			WithHint("pass the websocket address (ws://127.0.0.1:PORT/devtools/browser/ID) or the DevToolsActivePort file of the profile")
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return errs.New(errs.BadInput, "the browser address %s is not on this machine", redactEndpoint(raw)).
		WithHint("Ferry only drives browsers over loopback (127.0.0.1 or ::1)")
}
