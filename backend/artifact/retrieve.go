package artifact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// DefaultMaxDownload caps the bytes fetched for one zip.
const DefaultMaxDownload = 1 << 30

// DownloadStatusError maps a download's HTTP status to its envelope, so that
// every fetch reports the same codes: nil for 200, ArtifactForbidden for
// 401 and 403 (the cookie-bound URL was refused), ArtifactExpired for 404
// and 410, ArtifactFetchFailed for anything else.
func DownloadStatusError(status int) error {
	switch status {
	case http.StatusOK:
		return nil
	case http.StatusUnauthorized, http.StatusForbidden:
		return errs.New(errs.ArtifactForbidden, "the download was refused (HTTP %d)", status).WithEvidence("status", fmt.Sprint(status))
	case http.StatusNotFound, http.StatusGone:
		return errs.New(errs.ArtifactExpired, "the file is gone from the sandbox (HTTP %d)", status).WithEvidence("status", fmt.Sprint(status))
	}
	return errs.New(errs.ArtifactFetchFailed, "the download answered HTTP %d", status).WithEvidence("status", fmt.Sprint(status))
}

// TooLargeError is the envelope a fetch returns when a download passes
// its limit.
func TooLargeError(limit int64) error {
	return errs.New(errs.ArtifactTooLarge, "the download is larger than the limit of %d bytes", limit).
		WithEvidence("limit", fmt.Sprint(limit))
}

type retrieveConfig struct {
	maxDownload int64
	save        []SaveOption
}

// RetrieveOption changes how Retrieve works.
type RetrieveOption func(*retrieveConfig)

// WithMaxDownload caps the bytes fetched for one zip.
func WithMaxDownload(n int64) RetrieveOption {
	return func(c *retrieveConfig) { c.maxDownload = n }
}

// WithSave passes options to Save.
func WithSave(opts ...SaveOption) RetrieveOption {
	return func(c *retrieveConfig) { c.save = append(c.save, opts...) }
}

// FetchInfo describes a completed download.
type FetchInfo struct {
	Bytes              int64  // bytes written to the writer
	ContentType        string // as the server sent it
	ContentDisposition string // carries the file name
	// Transport is how the bytes left the browser, for the record.
	Transport Transport
}

// Transport is how a download's bytes left the browser (the record a zip
// receipt keeps).
type Transport = record.ZipTransport

// Download is one minted sandbox file, ready to fetch once.
type Download struct {
	// MessageID is the message whose mint answered.
	MessageID string
	// Fetch streams the file into w, at most limit bytes: more is
	// ArtifactTooLarge; statuses map as DownloadStatusError says; a fetch
	// that breaks off is ArtifactFetchFailed. It holds the signed download
	// address, which never leaves it.
	Fetch func(ctx context.Context, w io.Writer, limit int64) (FetchInfo, error)
}

// Minter is a site's side of bringing a sandbox file home (a
// provider.ArtifactSource is one): the mint of a one-time download, and the
// conversation address recorded in the provenance.
type Minter interface {
	// MintDownload mints the download of z in conversation conversationID,
	// trying z.MessageIDs in order. Errors are envelopes (BadInput for ids
	// or a path the site refuses, ArtifactExpired, ArtifactForbidden,
	// ArtifactMintFailed) or ctx's error.
	MintDownload(ctx context.Context, conversationID string, z Found) (*Download, error)
	// ConversationAddress is the address of conversation conversationID.
	ConversationAddress(conversationID string) string
}

// Retrieve brings one sandbox zip home: it mints the download through m,
// streams the bytes into Save, and returns where the zip was saved. The
// provenance is completed with the conversation id, the message id of the
// mint and the sandbox path (and the conversation's address when it has
// none). Errors are the envelopes of the mint, of the fetch, and of Save
// (verification included); nothing partial is left in dir.
func Retrieve(ctx context.Context, m Minter, conversationID string, z Found, dir string, prov Provenance, opts ...RetrieveOption) (*Saved, error) {
	cfg := retrieveConfig{maxDownload: DefaultMaxDownload}
	for _, o := range opts {
		o(&cfg)
	}
	if len(z.MessageIDs) == 0 {
		return nil, errs.New(errs.ArtifactNotFound, "no message holds %s, so no download can be minted", z.Path).WithEvidence("sandboxPath", z.Path)
	}
	minted, err := m.MintDownload(ctx, conversationID, z)
	if err != nil {
		return nil, err
	}

	pr, pw := io.Pipe()
	dlErr := make(chan error, 1)
	var info FetchInfo
	go func() {
		var err error
		info, err = minted.Fetch(ctx, pw, cfg.maxDownload)
		pw.CloseWithError(err)
		dlErr <- err
	}()
	prov.ConversationID, prov.MessageID, prov.SandboxPath = conversationID, minted.MessageID, z.Path
	if prov.ConversationURL == "" {
		prov.ConversationURL = m.ConversationAddress(conversationID)
	}
	saved, err := Save(ctx, dir, z.Path, pr, prov, cfg.save...)
	pr.CloseWithError(io.ErrClosedPipe) // unblocks a download that Save stopped reading
	// The download's own failure explains a failed save better than the
	// broken pipe it caused, unless Save failed first and broke the pipe.
	if derr := <-dlErr; derr != nil && !errors.Is(derr, io.ErrClosedPipe) && (err == nil || errs.Has(err, errs.ArtifactSaveFailed)) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errs.CodeOf(derr) == "" {
			derr = errs.Wrap(derr, errs.ArtifactFetchFailed, "download %s: %v", z.Path, derr)
		}
		return nil, errs.From(derr).WithEvidence("sandboxPath", z.Path)
	}
	if saved != nil {
		saved.Transport = info.Transport // dlErr was received: the fetch has returned
	}
	if err != nil {
		return saved, errs.From(err).WithEvidence("sandboxPath", z.Path)
	}
	return saved, nil
}

// Result is the outcome of one zip of RetrieveAll.
type Result struct {
	Path  string `json:"path"`
	Saved *Saved `json:"-"`
	Err   error  `json:"-"`
}

// RetrieveAll retrieves each zip on its own, in order, and reports each
// outcome. The error is nil when at least one zip was saved as good (the
// caller warns about the rest, see Failed), ArtifactNotFound when there is
// no zip, and otherwise the first failure; ctx's error stops the loop.
func RetrieveAll(ctx context.Context, m Minter, conversationID string, zips []Found, dir string, prov Provenance, opts ...RetrieveOption) ([]Result, error) {
	if len(zips) == 0 {
		return nil, errs.New(errs.ArtifactNotFound, "the conversation names no /mnt/data zip")
	}
	var out []Result
	var first error
	good := 0
	for _, z := range zips {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		s, err := Retrieve(ctx, m, conversationID, z, dir, prov, opts...)
		out = append(out, Result{Path: z.Path, Saved: s, Err: err})
		if err == nil {
			good++
		} else if first == nil {
			first = err
		}
	}
	if good > 0 {
		return out, nil
	}
	return out, first
}

// Failed describes the zips of results that were not saved as good, for the
// warning of a run that succeeded with some of its zips.
func Failed(results []Result) string {
	var parts []string
	for _, r := range results {
		if r.Err != nil {
			parts = append(parts, fmt.Sprintf("%s (%s)", r.Path, errs.CodeOf(r.Err)))
		}
	}
	return strings.Join(parts, ", ")
}
