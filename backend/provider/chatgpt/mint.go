package chatgpt

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Origin is the only origin the sandbox download requests go to, and the
// origin of the conversation address recorded in a zip's provenance.
const Origin = "https://chatgpt.com"

// estuaryPath is where the minted, cookie-bound download URLs point.
const estuaryPath = "/backend-api/estuary/content"

var (
	idRe     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)
	fileIDRe = regexp.MustCompile(`^file[_-][A-Za-z0-9]{8,128}$`)
)

// MintURL returns the absolute URL of
// `GET /backend-api/conversation/<cid>/interpreter/download?message_id=…&sandbox_path=…`
// for a sandbox path held by a message. The request needs the page's bearer
// token; this function only builds the URL. Ids outside [A-Za-z0-9_-] and
// paths that artifact.ValidateSandboxPath refuses are BadInput envelopes.
func MintURL(conversationID, messageID, sandboxPath string) (string, error) {
	if !idRe.MatchString(conversationID) {
		return "", errs.New(errs.BadInput, "conversation id %q is not a ChatGPT id", conversationID).
			WithHint("pass the id from the conversation URL https://chatgpt.com/c/<id>")
	}
	if !idRe.MatchString(messageID) {
		return "", errs.New(errs.BadInput, "message id %q is not a ChatGPT id", messageID)
	}
	if err := artifact.ValidateSandboxPath(sandboxPath); err != nil {
		return "", err
	}
	q := url.Values{}
	q.Set("message_id", messageID)
	q.Set("sandbox_path", sandboxPath)
	u := url.URL{
		Scheme:   "https",
		Host:     "chatgpt.com",
		Path:     "/backend-api/conversation/" + conversationID + "/interpreter/download",
		RawQuery: q.Encode(),
	}
	return u.String(), nil
}

// Minted is a successful mint answer.
type Minted struct {
	DownloadURL string `json:"download_url"`
	FileName    string `json:"file_name"`
	MimeType    string `json:"mime_type"`
	FileID      string `json:"file_id"`
}

type mintBody struct {
	Status      string `json:"status"`
	ErrorCode   string `json:"error_code"`
	DownloadURL string `json:"download_url"`
	FileName    string `json:"file_name"`
	MimeType    string `json:"mime_type"`
	Metadata    struct {
		FileID string `json:"file_id"`
	} `json:"metadata"`
}

// ParseMintResponse reads the interpreter/download answer: the HTTP status
// and the body. It returns the minted URL, checked by ValidateDownloadURL,
// or an envelope: ArtifactExpired for `{"status":"error","error_code":
// "ace_pod_expired"}` or a 404, ArtifactForbidden for 403, ArtifactMintFailed
// for 401, other statuses, other error codes or a body that is not the
// expected JSON. Evidence never holds the signed URL's query.
func ParseMintResponse(status int, body []byte) (*Minted, error) {
	var b mintBody
	jsonErr := json.Unmarshal(body, &b)
	switch {
	case b.ErrorCode == "ace_pod_expired" || (status == http.StatusNotFound && b.Status != "success"):
		return nil, errs.New(errs.ArtifactExpired, "the sandbox that held the file has expired (HTTP %d, %s)", status, orNone(b.ErrorCode)).
			WithEvidence("status", fmt.Sprint(status))
	case status == http.StatusForbidden:
		return nil, errs.New(errs.ArtifactForbidden, "the download mint was refused (HTTP 403)").
			WithEvidence("status", "403")
	case status == http.StatusUnauthorized:
		return nil, errs.New(errs.ArtifactMintFailed, "the download mint needs a login (HTTP 401)").
			WithEvidence("status", "401")
	case status != http.StatusOK:
		return nil, errs.New(errs.ArtifactMintFailed, "the download mint answered HTTP %d (%s)", status, orNone(b.ErrorCode)).
			WithEvidence("status", fmt.Sprint(status))
	case jsonErr != nil:
		return nil, errs.Wrap(jsonErr, errs.ArtifactMintFailed, "the download mint answered %d bytes that are not JSON", len(body))
	case b.Status != "success":
		return nil, errs.New(errs.ArtifactMintFailed, "the download mint answered status %q (%s)", b.Status, orNone(b.ErrorCode)).
			WithEvidence("error_code", b.ErrorCode)
	}
	if err := ValidateDownloadURL(b.DownloadURL); err != nil {
		return nil, err
	}
	return &Minted{DownloadURL: b.DownloadURL, FileName: b.FileName, MimeType: b.MimeType, FileID: b.Metadata.FileID}, nil
}

func orNone(s string) string {
	if s == "" {
		return "no error code"
	}
	return "error code " + s
}

// ValidateDownloadURL accepts only an estuary URL on https://chatgpt.com
// (no port, no user info, no fragment) with a query id of the form file_…;
// anything else is an ArtifactMintFailed envelope whose evidence names the
// host and path, never the signed query.
func ValidateDownloadURL(raw string) error {
	fail := func(why string, u *url.URL) error {
		e := errs.New(errs.ArtifactMintFailed, "refuse download url: %s", why)
		if u != nil {
			e = e.WithEvidence("host", u.Host).WithEvidence("path", u.Path)
		}
		return e.WithHint("the site answered an unexpected download address; nothing was fetched: report it if it persists")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fail("it does not parse", nil)
	}
	switch {
	case u.Scheme != "https":
		return fail("the scheme is not https", u)
	case u.User != nil:
		return fail("it carries user info", u)
	case u.Host != "chatgpt.com":
		return fail("the host is not chatgpt.com", u)
	case u.Path != estuaryPath || u.RawPath != "":
		return fail("the path is not "+estuaryPath, u)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return fail("it has a fragment", u)
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return fail("the query does not parse", u)
	}
	if ids := q["id"]; len(ids) != 1 || !fileIDRe.MatchString(ids[0]) {
		return fail("the query has no single id=file_… parameter", u)
	}
	return nil
}

// Downloader performs the requests that must carry the browser's cookies.
// The adapter's Fetcher implements it in the page (the estuary URL is bound
// to the session cookies and answers 403 outside the browser); tests use a
// loopback HTTP implementation.
type Downloader interface {
	// Mint GETs the interpreter/download URL with the page's bearer token
	// and returns the HTTP status and body; a transport failure is an error,
	// an HTTP error status is not.
	Mint(ctx context.Context, mintURL string) (status int, body []byte, err error)
	// Download streams the body of a validated download URL into w, at most
	// limit bytes. More than limit is ArtifactTooLarge; 403 is
	// ArtifactForbidden; 404 and 410 are ArtifactExpired; other statuses and
	// transport failures are ArtifactFetchFailed.
	Download(ctx context.Context, downloadURL string, w io.Writer, limit int64) (artifact.FetchInfo, error)
}
