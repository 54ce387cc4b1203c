// Package hub is Ferry's local gateway: the owner of a data directory (the
// desktop app or `ferry serve`) serves an authenticated HTTP + WebSocket API
// on loopback through it, so that the CLI and coding agents can create jobs,
// read sessions and tabs, download verified artifacts and follow runs while
// the owner holds the store and the browser.
//
// The API can type into the user's logged-in sessions, so the gateway treats
// every request as hostile until proven otherwise: the Host must be a
// loopback name with the hub's port (DNS rebinding), a present Origin must be
// allowlisted (cross-site requests from web pages, also on the WebSocket
// upgrade), the bearer token travels in the Authorization header only, and
// agent clients pair once with a short-lived code, get their own revocable
// token, and are rate limited.
//
// The pipeline, sessions, artifacts, approvals, clients and pairing codes
// are not the hub's: its routes call a service.Gateway (core's Service) with
// the caller the token names, which decides what that caller may do (an
// agent's jobs wait for the user's approval there), and it relays the
// owner's events from the Gateway's stream to each caller that may see them.
package hub
