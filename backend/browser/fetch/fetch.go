// Package fetch makes requests inside a tab with the page's cookies, which
// never leave the browser, and moves response bodies out of the page: as
// text (Text), or as a stream of bytes by the way that suits the browser
// (Bytes): its own download to a file when it shares Ferry's files
// (SharesFiles), else over the DevTools connection. The downloads it makes
// leave the browser's download list again. Failures are envelopes as for
// browser.Page, but for *Error, a fetch the page could not make at all.
package fetch

import (
	"context"
	"fmt"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/redact"
)

// Options describes an in-page fetch. Credentials are always included:
// the point of fetching in the page is the browser's cookies (HttpOnly ones
// too), which never leave it.
type Options struct {
	Method  string            // default GET
	Headers map[string]string // e.g. an Authorization bearer: never logged, never in errors
	Body    string
}

// Meta is what a response said about itself.
type Meta struct {
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	URL        string            `json:"url"` // after redirects
	Headers    map[string]string `json:"headers"`
	Size       int64             `json:"size"` // Content-Length, or -1 when not given

	// Way is the way Bytes moved the body with.
	Way Way `json:"-"`
	// Files is whether the browser shares Ferry's files, when Bytes asked
	// (SharesFiles); nil when it did not need to know.
	Files *FileSharing `json:"-"`
}

// Response is a text response of Text.
type Response struct {
	Meta
	Body string
}

// Error is a fetch the page could not complete at all (network error, CORS
// refusal, a refused URL): there is no HTTP status.
type Error struct {
	URL    string
	Reason string // the page's TypeError text, e.g. "Failed to fetch"
}

// Error names the address without its query and fragment (redact.URL):
// download URLs carry signatures that work as credentials, and errors are
// shown and stored.
func (e *Error) Error() string {
	return fmt.Sprintf("fetch %s in the page: %s", redact.URL(e.URL), e.Reason)
}

// fetchPrelude starts a fetch with the page's cookies and describes the
// response; every way of reading a body starts with it, so status and
// headers are known before any byte is moved.
const fetchPrelude = `
const __fetch = async (url, o) => {
  const init = {method: o.method || 'GET', headers: o.headers || {}, credentials: 'include', redirect: 'follow'};
  if (o.body) init.body = o.body;
  const r = await fetch(url, init);
  const headers = {};
  r.headers.forEach((v, k) => { headers[k] = v; });
  const len = r.headers.get('content-length');
  return {r, meta: {status: r.status, statusText: r.statusText, url: r.url, headers, size: len === null ? -1 : Number(len)}};
};`

type fetchArgs struct {
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
}

func (o Options) args() fetchArgs {
	return fetchArgs{Method: o.Method, Headers: o.Headers, Body: o.Body}
}

type fetchReply struct {
	Error string `json:"error"`
	Meta  Meta   `json:"meta"`
	Body  string `json:"body"`
	ID    string `json:"id"`
}

func (r fetchReply) err(url string) error {
	if r.Error == "" {
		return nil
	}
	return &Error{URL: url, Reason: r.Error}
}

// Text runs fetch(url, {credentials:'include', ...}) in the tab p and
// returns status, headers and the body as text, for any status. Use it for
// JSON and text; Bytes is for files. A fetch the page cannot complete
// returns an *Error (not an envelope: the caller knows what the URL was
// for); other failures are envelopes as for Page.Eval.
func Text(ctx context.Context, p *browser.Page, rawURL string, opts Options) (*Response, error) {
	var r fetchReply
	err := p.EvalInto(ctx, &r, `async (url, o) => {`+fetchPrelude+`
  try {
    const {r, meta} = await __fetch(url, o);
    return {meta, body: await r.text()};
  } catch (e) { return {error: String(e && e.message || e)}; }
}`, rawURL, opts.args())
	if err != nil {
		return nil, err
	}
	if err := r.err(rawURL); err != nil {
		return nil, err
	}
	return &Response{Meta: r.Meta, Body: r.Body}, nil
}

// tooLarge is the envelope for a body over the caller's cap.
func tooLarge(max, seen int64) error {
	return errs.New(errs.ArtifactTooLarge, "the response is larger than the %d-byte limit (at least %d bytes)", max, seen).
		WithEvidence("limit_bytes", fmt.Sprint(max)).WithEvidence("seen_bytes", fmt.Sprint(seen))
}
