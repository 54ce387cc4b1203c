package client

import (
	"context"
	"net/http"

	"github.com/ferrydesk/ferry/backend/hub"
)

// PollSession checks a run once (owner only).
func (c *Client) PollSession(ctx context.Context, chk hub.SessionCheck) (hub.PollResult, error) {
	var out hub.PollResult
	return out, c.do(ctx, http.MethodPost, "/v1/sessions/poll", chk, &out)
}

// ReattachSession resumes a run as a job of hub.KindReattach, or returns
// the job that runs it already (owner only); follow the job with GetJob and
// the event stream.
func (c *Client) ReattachSession(ctx context.Context, chk hub.SessionCheck) (hub.ReattachResult, error) {
	var out hub.ReattachResult
	return out, c.do(ctx, http.MethodPost, "/v1/sessions/reattach", chk, &out)
}

// DoctorSessions checks the tabs of active and stale runs (owner only).
func (c *Client) DoctorSessions(ctx context.Context, chk hub.SessionCheck) (hub.DoctorResult, error) {
	var out hub.DoctorResult
	return out, c.do(ctx, http.MethodPost, "/v1/sessions/doctor", chk, &out)
}

// OpenTab opens a site in a new background tab of the owner's browser
// (owner only).
func (c *Client) OpenTab(ctx context.Context, req hub.OpenTabRequest) (hub.Tab, error) {
	var out hub.Tab
	return out, c.do(ctx, http.MethodPost, "/v1/tabs", req, &out)
}

// BrowserEndpoint returns the DevTools address of the owner's browser
// (owner only). Errors: errs.BrowserDisconnected when the owner has none.
func (c *Client) BrowserEndpoint(ctx context.Context) (hub.BrowserInfo, error) {
	var out hub.BrowserInfo
	return out, c.do(ctx, http.MethodGet, "/v1/browser", nil, &out)
}
