package service

import "github.com/ferrydesk/ferry/backend/errs"

// The owner's browser connection states, as BrowserState.Status.
const (
	BrowserNotStarted   = "not_started"  // nothing asked for the browser yet
	BrowserConnected    = "connected"    // ready for runs
	BrowserDisconnected = "disconnected" // it went away (closed, crashed) or could not be reached
)

// BrowserState is what the owner's long-lived browser is doing.
type BrowserState struct {
	// Status is not_started, connected or disconnected.
	Status string `json:"status"`
	// Mode is "launch" (Ferry starts its own browser on its profile) or
	// "attach" (a browser the user started, per settings.browser.attachURL).
	Mode string `json:"mode"`
	// Launched is true when the connected browser is one Ferry started
	// (and will quit when it closes).
	Launched bool `json:"launched"`
	Headless bool `json:"headless"`
	PID      int  `json:"pid,omitempty"`
	// Endpoint is the DevTools host:port in use (never its path, which
	// holds the browser's id).
	Endpoint string `json:"endpoint,omitempty"`
	// Problem is why the browser is not connected: the last launch or
	// attach failure, or what ended the connection.
	Problem *errs.Envelope `json:"problem"`
}

// BrowserStateRequest asks for the browser's state.
type BrowserStateRequest struct{}

// Validate accepts every request.
func (BrowserStateRequest) Validate() error { return nil }

// ConnectBrowserRequest connects the owner's browser; Reconnect first
// drops the one connected (quitting it when Ferry launched it).
type ConnectBrowserRequest struct {
	Reconnect bool `json:"reconnect,omitempty"`
	// Background starts a browser that Ferry launches now minimized, so it
	// does not come up over what the user is doing (the quick prompt's
	// send); a browser already connected, or attached, is left as it is.
	Background bool `json:"background,omitempty"`
}

// Validate accepts every request.
func (ConnectBrowserRequest) Validate() error { return nil }

// TabStatesRequest lists the owner's tabs with their readiness.
type TabStatesRequest struct{}

// Validate accepts every request.
func (TabStatesRequest) Validate() error { return nil }
