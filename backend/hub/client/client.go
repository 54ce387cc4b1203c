package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

// Client calls a hub's HTTP API. It is safe for concurrent use.
type Client struct {
	mu       sync.RWMutex
	ep       Endpoint
	failover func(ctx context.Context) (Endpoint, error)

	http    *http.Client
	retries int
	newID   func() string
	peer    service.Peer
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the HTTP client (its transport must reach
// 127.0.0.1 directly).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithRetries sets how often a request that failed in transport (no
// response) is sent again, with the same message id, and how often a
// request refused by the rate limit is sent again after the wait the hub
// asks for (at most 15 s) (default 2 each).
func WithRetries(n int) Option { return func(c *Client) { c.retries = max(n, 0) } }

// WithFailover lets the client find an owner again when the one it calls
// stops listening (its connection is refused: the request was not
// delivered, so sending it elsewhere runs it once). find returns the
// endpoint of the owner that serves the data directory now: one that took
// over, or one the caller starts. The request is sent there once; without
// failover, or when find fails, the refusal is errs.HubNotRunning.
func WithFailover(find func(ctx context.Context) (Endpoint, error)) Option {
	return func(c *Client) { c.failover = find }
}

// newTransport talks to loopback only: no proxy from the environment.
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        128,
		MaxIdleConnsPerHost: 128,
		IdleConnTimeout:     90 * time.Second,
	}
}

// New returns a client of the hub at ep.
func New(ep Endpoint, opts ...Option) *Client {
	c := &Client{ep: ep, http: &http.Client{Transport: newTransport()}, retries: 2, newID: uuid.NewString, peer: service.This()}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Endpoint returns the endpoint the client calls.
func (c *Client) Endpoint() Endpoint {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.ep
}

// failOver asks the failover for the owner serving now, once per request,
// and calls it from then on. It reports whether it found one.
func (c *Client) failOver(ctx context.Context, gone Endpoint) (bool, error) {
	if c.failover == nil {
		return false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ep.BaseURL() != gone.BaseURL() {
		// Another request found the new owner meanwhile.
		return true, nil
	}
	ep, err := c.failover(ctx)
	if err != nil {
		return false, err
	}
	c.ep = ep
	return true, nil
}

// do sends one request. POST and DELETE carry a fresh message id, reused on
// the transport retries so that the hub executes the request once.
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	resp, err := c.send(ctx, method, path, in)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		return decodeError(resp)
	}
	if out == nil {
		io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return errs.Wrap(err, errs.Internal, "decode the hub's answer to %s %s: %v", method, path, err)
	}
	return nil
}

func (c *Client) send(ctx context.Context, method, path string, in any) (*http.Response, error) {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return nil, errs.Wrap(err, errs.BadInput, "encode request for %s: %v", path, err)
		}
	}
	msgID := ""
	if method == http.MethodPost || method == http.MethodDelete {
		msgID = c.newID()
	}
	var lastErr error
	failures, limited, failedOver := 0, 0, false
	for {
		ep := c.Endpoint()
		req, err := http.NewRequestWithContext(ctx, method, ep.BaseURL()+path, bytes.NewReader(body))
		if err != nil {
			return nil, errs.Wrap(err, errs.BadInput, "build request %s %s: %v", method, path, err)
		}
		ep.authorize(req.Header)
		setActAs(ctx, req.Header)
		statePeer(req.Header, c.peer)
		req.Header.Set("Accept", "application/json")
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if msgID != "" {
			req.Header.Set(hub.MessageIDHeader, msgID)
		}
		resp, err := c.http.Do(req)
		if err == nil && resp.StatusCode == http.StatusTooManyRequests && limited < c.retries {
			// The hub refused the message before running it (the rate limit
			// comes before routing and dedup): wait as told and send again.
			// A longer wait goes back to the caller as the hub's envelope.
			if wait := retryAfter(resp); wait <= maxRateWait {
				resp.Body.Close()
				limited++
				if err := sleep(ctx, wait); err != nil {
					return nil, err
				}
				continue
			}
		}
		if err == nil {
			if verr := checkOwner(resp, path, c.peer); verr != nil {
				resp.Body.Close()
				return nil, verr
			}
			return resp, nil
		}
		lastErr = err
		if errors.Is(err, syscall.ECONNREFUSED) && ctx.Err() == nil {
			if failedOver {
				break
			}
			failedOver = true
			found, ferr := c.failOver(ctx, ep)
			if found {
				continue
			}
			if ferr != nil {
				return nil, ferr
			}
			break
		}
		failures++
		if ctx.Err() != nil || failures > c.retries {
			break
		}
		if err := sleep(ctx, time.Duration(failures)*150*time.Millisecond); err != nil {
			return nil, err
		}
	}
	if errors.Is(lastErr, syscall.ECONNREFUSED) {
		return nil, errs.Wrap(lastErr, errs.HubNotRunning, "the Ferry owner at %s stopped answering (%s %s): nothing listens there any more", c.Endpoint().BaseURL(), method, path)
	}
	return nil, fmt.Errorf("call ferry hub %s %s: %w", method, path, lastErr)
}

// maxRateWait is the longest Retry-After a client waits out by itself;
// a longer one comes back to the caller as errs.HubRateLimited.
const maxRateWait = 15 * time.Second

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// retryAfter reads the Retry-After seconds of a 429 (at least one second).
func retryAfter(resp *http.Response) time.Duration {
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || secs < 1 {
		secs = 1
	}
	return time.Duration(secs) * time.Second
}

// decodeError turns an error response into its errs envelope.
func decodeError(resp *http.Response) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var env errs.Envelope
	if err := json.Unmarshal(data, &env); err == nil && env.Code != "" {
		if _, known := errs.Lookup(env.Code); known {
			return &env
		}
	}
	return errs.New(errs.Internal, "the hub answered %s without an error envelope", resp.Status).
		WithEvidence("status", strconv.Itoa(resp.StatusCode))
}

// WhoAmI returns the caller's identity as the hub sees it.
func (c *Client) WhoAmI(ctx context.Context) (hub.WhoAmI, error) {
	var out hub.WhoAmI
	return out, c.do(ctx, http.MethodGet, "/v1/whoami", nil, &out)
}

// CreateJob submits a job. A paired client's job comes back in
// hub.StateAwaitingApproval unless the client is set to auto-approve.
func (c *Client) CreateJob(ctx context.Context, spec hub.JobSpec) (hub.Job, error) {
	var out hub.Job
	return out, c.do(ctx, http.MethodPost, "/v1/jobs", spec, &out)
}

// GetJob returns a job.
func (c *Client) GetJob(ctx context.Context, id string) (hub.Job, error) {
	var out hub.Job
	return out, c.do(ctx, http.MethodGet, "/v1/jobs/"+url.PathEscape(id), nil, &out)
}

// CancelJob cancels a job.
func (c *Client) CancelJob(ctx context.Context, id string) (hub.Job, error) {
	var out hub.Job
	return out, c.do(ctx, http.MethodPost, "/v1/jobs/"+url.PathEscape(id)+"/cancel", nil, &out)
}

// ListSessions lists sessions: newest first, or best match first with
// q.Query, as the backend orders them.
func (c *Client) ListSessions(ctx context.Context, q hub.SessionQuery) ([]hub.SessionSummary, error) {
	v := url.Values{}
	if q.Site != "" {
		v.Set("site", q.Site)
	}
	if q.State != "" {
		v.Set("state", q.State)
	}
	if q.Tool != "" {
		v.Set("tool", q.Tool)
	}
	if q.Query != "" {
		v.Set("q", q.Query)
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	var out []hub.SessionSummary
	return out, c.do(ctx, http.MethodGet, "/v1/sessions"+query(v), nil, &out)
}

// SearchSessions searches the history.
func (c *Client) SearchSessions(ctx context.Context, q string, limit int) ([]hub.SessionSummary, error) {
	v := url.Values{"q": {q}}
	if limit > 0 {
		v.Set("limit", strconv.Itoa(limit))
	}
	var out []hub.SessionSummary
	return out, c.do(ctx, http.MethodGet, "/v1/sessions/search"+query(v), nil, &out)
}

// ShowSession returns one session.
func (c *Client) ShowSession(ctx context.Context, id string) (hub.Session, error) {
	var out hub.Session
	return out, c.do(ctx, http.MethodGet, "/v1/sessions/"+url.PathEscape(id), nil, &out)
}

// ExportSession returns run id rendered as format ("md" or "json"), its
// secrets redacted.
func (c *Client) ExportSession(ctx context.Context, id, format string) (service.Export, error) {
	var out service.Export
	return out, c.do(ctx, http.MethodGet, "/v1/sessions/"+url.PathEscape(id)+"/export"+query(url.Values{"format": {format}}), nil, &out)
}

// ReportSession returns the failure report of run id.
func (c *Client) ReportSession(ctx context.Context, id string) (service.Report, error) {
	var out service.Report
	return out, c.do(ctx, http.MethodGet, "/v1/sessions/"+url.PathEscape(id)+"/report", nil, &out)
}

// ListTabs lists the browser tabs.
func (c *Client) ListTabs(ctx context.Context) ([]hub.Tab, error) {
	var out []hub.Tab
	return out, c.do(ctx, http.MethodGet, "/v1/tabs", nil, &out)
}

// DownloadArtifact copies a verified artifact of a job to w and checks it
// against the SHA-256 the hub announces. Errors: the hub's envelopes;
// errs.ArtifactCorrupt when the bytes do not match the announced digest.
func (c *Client) DownloadArtifact(ctx context.Context, jobID, name string, w io.Writer) (int64, error) {
	path := "/v1/jobs/" + url.PathEscape(jobID) + "/artifacts/" + url.PathEscape(name)
	resp, err := c.send(ctx, http.MethodGet, path, nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		return 0, decodeError(resp)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), resp.Body)
	if err != nil {
		return n, errs.Wrap(err, errs.ArtifactFetchFailed, "download artifact %s of job %s: %v", name, jobID, err)
	}
	if want := resp.Header.Get("X-Ferry-Sha256"); want != "" && want != hex.EncodeToString(h.Sum(nil)) {
		return n, errs.New(errs.ArtifactCorrupt, "artifact %s of job %s does not match its SHA-256", name, jobID).WithEvidence("sha256", want)
	}
	return n, nil
}

// Approvals lists the jobs waiting for approval (owner only).
func (c *Client) Approvals(ctx context.Context) ([]hub.Approval, error) {
	var out []hub.Approval
	return out, c.do(ctx, http.MethodGet, "/v1/approvals", nil, &out)
}

// Approve lets a waiting job run (owner only).
func (c *Client) Approve(ctx context.Context, jobID string) (hub.Job, error) {
	var out hub.Job
	return out, c.do(ctx, http.MethodPost, "/v1/approvals/"+url.PathEscape(jobID)+"/approve", nil, &out)
}

// Reject ends a waiting job without running it (owner only).
func (c *Client) Reject(ctx context.Context, jobID, reason string) (hub.Job, error) {
	var out hub.Job
	return out, c.do(ctx, http.MethodPost, "/v1/approvals/"+url.PathEscape(jobID)+"/reject", hub.RejectRequest{Reason: reason}, &out)
}

// NewPairingCode asks for a one-time pairing code (owner only).
func (c *Client) NewPairingCode(ctx context.Context) (hub.PairingCode, error) {
	var out hub.PairingCode
	return out, c.do(ctx, http.MethodPost, "/v1/pairing", nil, &out)
}

// Clients lists the paired clients (owner only).
func (c *Client) Clients(ctx context.Context) ([]hub.ClientInfo, error) {
	var out []hub.ClientInfo
	return out, c.do(ctx, http.MethodGet, "/v1/clients", nil, &out)
}

// Revoke revokes a paired client (owner only).
func (c *Client) Revoke(ctx context.Context, clientID string) (hub.ClientInfo, error) {
	var out hub.ClientInfo
	return out, c.do(ctx, http.MethodDelete, "/v1/clients/"+url.PathEscape(clientID), nil, &out)
}

// SetAutoApprove sets whether a client's jobs skip approval (owner only).
func (c *Client) SetAutoApprove(ctx context.Context, clientID string, on bool) (hub.ClientInfo, error) {
	var out hub.ClientInfo
	return out, c.do(ctx, http.MethodPost, "/v1/clients/"+url.PathEscape(clientID)+"/settings", hub.ClientSettings{AutoApprove: &on}, &out)
}

// GrantExisting sets whether a client's jobs may name the user's existing
// tabs, conversations and runs (owner only).
func (c *Client) GrantExisting(ctx context.Context, clientID string, on bool) (hub.ClientInfo, error) {
	var out hub.ClientInfo
	return out, c.do(ctx, http.MethodPost, "/v1/clients/"+url.PathEscape(clientID)+"/settings", hub.ClientSettings{ExistingConversations: &on}, &out)
}

// SetFileRoots replaces the folders under which a client's jobs may name
// files to attach (owner only; [] for none).
func (c *Client) SetFileRoots(ctx context.Context, clientID string, roots []string) (hub.ClientInfo, error) {
	var out hub.ClientInfo
	if roots == nil {
		roots = []string{}
	}
	return out, c.do(ctx, http.MethodPost, "/v1/clients/"+url.PathEscape(clientID)+"/settings", hub.ClientSettings{FileRoots: &roots}, &out)
}

// Pair exchanges a pairing code for a client token at the hub on port and
// returns the client's endpoint and id. Errors: errs.PairingCodeInvalid,
// errs.HubRateLimited (too many attempts), transport errors.
func Pair(ctx context.Context, port int, code, name string) (Endpoint, string, error) {
	body, _ := json.Marshal(hub.PairRequest{Code: code, Name: name})
	ep := NewEndpoint(port, "")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.BaseURL()+"/v1/pair", bytes.NewReader(body))
	if err != nil {
		return Endpoint{}, "", errs.Wrap(err, errs.BadInput, "build pairing request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	statePeer(req.Header, service.This())
	hc := &http.Client{Transport: newTransport()}
	resp, err := hc.Do(req)
	if err != nil {
		return Endpoint{}, "", fmt.Errorf("pair with ferry hub: %w", err)
	}
	defer resp.Body.Close()
	if err := checkOwner(resp, "/v1/pair", service.This()); err != nil {
		return Endpoint{}, "", err
	}
	if resp.StatusCode >= 400 {
		return Endpoint{}, "", decodeError(resp)
	}
	var out hub.PairResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Token == "" {
		return Endpoint{}, "", errs.New(errs.Internal, "the hub's pairing answer is malformed")
	}
	return NewEndpoint(port, out.Token), out.ClientID, nil
}

func query(v url.Values) string {
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}

func newMessageID() string { return uuid.NewString() }
